import { describe, expect, it } from "vitest";
import { clearToken, readToken, saveToken } from "../../ui/lib/token-store.ts";

class MemoryStorage implements Storage {
  #items = new Map<string, string>();
  get length() {
    return this.#items.size;
  }
  clear() {
    this.#items.clear();
  }
  getItem(key: string) {
    return this.#items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.#items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.#items.delete(key);
  }
  setItem(key: string, value: string) {
    this.#items.set(key, value);
  }
}

describe("token store", () => {
  it("keeps a token until sign-out clears it", () => {
    const storage = new MemoryStorage();
    expect(readToken(storage)).toBeNull();
    saveToken("secret-token", storage);
    expect(readToken(storage)).toBe("secret-token");
    clearToken(storage);
    expect(readToken(storage)).toBeNull();
    expect(storage.length).toBe(0);
  });
});
