import { defineProject, mergeConfig } from 'vitest/config';
import base from '../../../vitest.config.base.js';

// Benchmarks print timings and assert nothing; they are not part of `vitest run` (tests live in test/).
const config = mergeConfig(base, defineProject({ test: { name: 'search-bench' } }));
// mergeConfig concatenates `include`: replace it instead.
export default { ...config, test: { ...config.test, include: ['bench/**/*.run.ts'] } };
