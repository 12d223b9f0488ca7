import { defineProject, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.base.js';

// Two files at once: this package's tests mostly wait (on schedules, sandboxes, Redis), not compute. Measured back
// to back on this loaded 2-core machine (issue 34): 117 s -> 72 s wall, CPU 9.6 s -> 11.9 s.
export default mergeConfig(base, defineProject({ test: { name: 'plugin-exec', maxWorkers: 2 } }));
