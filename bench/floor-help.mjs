// The floor of a help page printed by commander (the design's parser): one command with two options,
// its help printed (bench/floor-help-run.mjs, which the single executable's floor is built from too).
// The bench bundles it as the CLI is bundled and runs it with Node's compile cache.
import { run } from './floor-help-run.mjs';

run([]);
