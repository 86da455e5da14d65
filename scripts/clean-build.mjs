#!/usr/bin/env node
// Before `npm pack`: remove dist/ so that the package holds only what this build compiled, never a
// compiled test or a file whose source was deleted since an earlier build.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';

rmSync(resolve(import.meta.dirname, '..', 'dist'), { recursive: true, force: true });
