import { defineProject, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.base.js';

// Two files at once: this package's tests mostly wait (on schedules, sandboxes, Redis), not compute. Measured back
// to back on this loaded 2-core machine (issue 34): 98 s -> 65 s wall, CPU 7.4 s -> 8.5 s.
export default mergeConfig(base, defineProject({ test: { name: 'plugin-cron', maxWorkers: 2 } }));
