import { defineProject, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.base.js';

// test/fallback.test.ts mocks the sandbox support module (vi.mock): each file gets fresh modules.
export default mergeConfig(base, defineProject({ test: { name: 'mode-code', isolate: true } }));
