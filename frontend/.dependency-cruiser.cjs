// The browser code's architectural rule, as import-linter holds the Python's: no import cycles,
// type-only imports included (`make test` runs it; tests/test_architecture.py proves it can fail).
// swc parses the TypeScript: dependency-cruiser's own TypeScript support predates TypeScript 7.
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Two modules that import each other, however indirectly, are one module in two files.",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    parser: "swc",
    tsPreCompilationDeps: true, // `import type` counts: a cycle of types is still a cycle
    doNotFollow: { path: "node_modules" },
  },
};
