/**
 * Memory helpers and the failure trap of the WebAssembly Kraken decoder (AssemblyScript).
 * Every address is an absolute byte index into linear memory, kept as an i32 (memory stays
 * far below 2 GiB). A check that finds bad input calls `fail()`: it records the failure and
 * traps, which unwinds the whole decode at once; the JavaScript side then reruns the
 * TypeScript reference decoder for the typed error (core/oodle/kraken/wasmDecoder.ts).
 */

/** 1 once a check failed during the current decode (read by the host after a trap). */
export let failed: i32 = 0;

// @ts-ignore: decorator
@inline export function fail(): void {
  failed = 1;
  unreachable();
}

// @ts-ignore: decorator
@inline export function ld8(p: i32): i32 {
  return <i32>load<u8>(<usize>p);
}
// @ts-ignore: decorator
@inline export function st8(p: i32, v: i32): void {
  store<u8>(<usize>p, v);
}
// @ts-ignore: decorator
@inline export function ld16(p: i32): i32 {
  return <i32>load<u16>(<usize>p);
}
// @ts-ignore: decorator
@inline export function st16(p: i32, v: i32): void {
  store<u16>(<usize>p, v);
}
// @ts-ignore: decorator
@inline export function ld32(p: i32): i32 {
  return load<i32>(<usize>p);
}
// @ts-ignore: decorator
@inline export function st32(p: i32, v: i32): void {
  store<i32>(<usize>p, v);
}
// @ts-ignore: decorator
@inline export function ld64(p: i32): u64 {
  return load<u64>(<usize>p);
}
// @ts-ignore: decorator
@inline export function st64(p: i32, v: u64): void {
  store<u64>(<usize>p, v);
}
// @ts-ignore: decorator
@inline export function copy16(d: i32, s: i32): void {
  v128.store(<usize>d, v128.load(<usize>s));
}
// @ts-ignore: decorator
@inline export function copyBytes(d: i32, s: i32, n: i32): void {
  memory.copy(<usize>d, <usize>s, <usize>n);
}
// @ts-ignore: decorator
@inline export function fillBytes(d: i32, v: i32, n: i32): void {
  memory.fill(<usize>d, <u8>v, <usize>n);
}
