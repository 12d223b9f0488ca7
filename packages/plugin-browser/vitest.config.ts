import { defineProject, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.base.js';

// Two files at once: much of this package's time is headless Chromium and loopback pages loading, not this process.
// Measured back to back on this loaded 2-core machine (issue 34): 60 s -> 45 s wall, CPU 16.5 s -> 16.5 s.
// (The inspect page's tests gained nothing from a second worker, so they keep one.)
export default mergeConfig(base, defineProject({ test: { name: 'plugin-browser', maxWorkers: 2 } }));
