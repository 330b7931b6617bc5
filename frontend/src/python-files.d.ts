// Python files bundled as text (esbuild's "text" loader, see build.mjs).
declare module "*.py" {
  const source: string;
  export default source;
}
