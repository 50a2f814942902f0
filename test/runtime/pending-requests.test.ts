// runtime/protocol/pending-requests.ts: the requests one side awaits answers
// for, as server and client both use them: ids, the bound, timeouts, aborts,
// and the end of every one of them when the connection goes.
import { describe, expect, test } from "vitest";
import { PendingRequests } from "../../runtime/protocol/pending-requests.js";

function pending(max = 2) {
  return new PendingRequests<{ note: string }>({
    max,
    firstId: 5,
    unrefTimers: true,
    full: (method, limit) => new Error(`${method}: ${limit} wait`),
    timedOut: (method, id, ms) => new Error(`${method} ${id} timed out after ${ms}`),
    aborted: (method, reason) => new Error(`${method} aborted: ${String(reason)}`),
  });
}

describe("PendingRequests", () => {
  test("ids count up from the first; an answer taken by id settles its request", async () => {
    const requests = pending();
    const written: number[] = [];
    const first = requests.send("ping", { timeoutMs: 1000 }, (id) => written.push(id), { note: "a" });
    const second = requests.send("roots/list", { timeoutMs: 1000 }, (id) => written.push(id), { note: "b" });
    expect(written).toEqual([5, 6]);
    expect(requests.get(6)).toMatchObject({ method: "roots/list", note: "b" });
    requests.take(6)!.resolve({ roots: [] });
    requests.take(5)!.reject(new Error("refused"));
    await expect(second).resolves.toEqual({ roots: [] });
    await expect(first).rejects.toThrow("refused");
    expect(requests.size).toBe(0);
    expect(requests.take(5)).toBeUndefined(); // answered already: an unknown id
  });

  test("one more than max is refused before it is written", async () => {
    const requests = pending(1);
    const written: number[] = [];
    void requests.send("ping", { timeoutMs: 1000 }, (id) => written.push(id)).catch(() => {});
    await expect(requests.send("ping", { timeoutMs: 1000 }, (id) => written.push(id))).rejects.toThrow("ping: 1 wait");
    expect(written).toEqual([5]);
    requests.rejectAll(() => new Error("closed"));
  });

  test("a timeout rejects, frees the slot and tells who gave up, in words", async () => {
    const requests = pending();
    const gaveUp: unknown[] = [];
    const answer = requests.send(
      "sampling/createMessage",
      { timeoutMs: 20, gaveUp: (id, error, why) => gaveUp.push([id, error.message, why]) },
      () => {},
    );
    await expect(answer).rejects.toThrow("sampling/createMessage 5 timed out after 20");
    expect(gaveUp).toEqual([[5, "sampling/createMessage 5 timed out after 20", "timed out after 20 ms"]]);
    expect(requests.size).toBe(0);
  });

  test("an abort rejects with the caller's reason; an answer after it finds no request", async () => {
    const requests = pending();
    const controller = new AbortController();
    const gaveUp: string[] = [];
    const answer = requests.send(
      "elicitation/create",
      { timeoutMs: 1000, signal: controller.signal, gaveUp: (_id, _error, why) => gaveUp.push(why) },
      () => {},
    );
    controller.abort("the user left");
    await expect(answer).rejects.toThrow("elicitation/create aborted: the user left");
    expect(gaveUp).toEqual(["the user left"]);
    expect(requests.get(5)).toBeUndefined();
  });

  test("rejectAll ends every waiting request with the error made for it", async () => {
    const requests = pending();
    const answers = ["ping", "roots/list"].map((method) => requests.send(method, { timeoutMs: 1000 }, () => {}));
    requests.rejectAll(({ method }) => new Error(`${method}: the connection closed`));
    await expect(answers[0]).rejects.toThrow("ping: the connection closed");
    await expect(answers[1]).rejects.toThrow("roots/list: the connection closed");
    expect(requests.size).toBe(0);
  });
});
