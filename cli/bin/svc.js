#!/usr/bin/env node
// The `svc` program: the bundle built from src/main.ts (`npm run build`).
import '../dist/main.js';
