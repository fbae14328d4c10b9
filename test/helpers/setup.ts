import { afterAll, afterEach, beforeEach } from 'vitest';
import { fileEnds, testEnds, testStarts } from './cleanup.js';

// Registered for every test file (vitest's setupFiles run once a file even where modules are shared), so
// each file's tests are cleaned up after, whichever file of the worker loaded the helpers first.
beforeEach(testStarts);
afterEach(testEnds);
afterAll(fileEnds);
