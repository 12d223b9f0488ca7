import { defineProject, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.base.js';

export default mergeConfig(base, defineProject({ test: { name: 'metrics' } }));
