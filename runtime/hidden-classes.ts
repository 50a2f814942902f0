// One instance of each short-lived class on the message path, kept for the
// life of the process.
//
// Why: V8 gives a class's instances hidden classes ("maps") made one per field
// as the constructor adds them, and only live instances hold those maps. A
// full (mark-compact) collection that finds no instance alive frees them, and
// every function compiled against them is deoptimized ("weak objects" in
// --trace-deopt): a server with no request in flight at that moment (one
// between two stdio lines, an idle HTTP server) then runs its whole request
// path in the interpreter and compiles it again. On the stdio path in process
// (bench/stdio --instructions: a full collection after the warm-up, then
// 20,000 tools/call) that was 45.3 against 36.9 thousand instructions a call,
// the floor's 29.0. An instance kept here holds the maps, so the compiled code
// stays valid across collections.
//
// Only classes whose instances are made per request (or per stateless POST)
// and dropped after belong here; anything long-lived holds its own maps.
//
// Closures: the same holds for compiled code itself. A closure made per
// request or per session (a listener, a callback) takes its optimized code
// from its site's feedback, which holds that code weakly: a full collection
// that finds no such closure alive frees the code, and the next closures run
// unoptimized until TurboFan compiles them again. Under session turnover the
// initialize path's closures were compiled again every few seconds (a soak,
// ~280 sessions a second: every ~3 s). So the hot functions on the message
// path are methods, passed bound where a function is wanted (the class's
// method holds its code); test/runtime/hidden-classes.test.ts checks that
// nothing of the runtime is compiled again after a collection unless V8
// invalidated it.

const kept: object[] = [];

/** Keeps `instance` (and with it its class's hidden classes) alive for the life of the process. */
export function keepHiddenClass<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}
