import { describe, expect, it } from "vitest";
import { addressKey } from "../src/limits/address-key.ts";

/** Issue 53, point 4: the key every per-address limit counts a caller's address under. */
describe("addressKey", () => {
  it.each([
    ["IPv4 as it is", "203.0.113.7", 64, "203.0.113.7"],
    ["no address", "anonymous", 64, "anonymous"],
    ["IPv6 to its /64", "2001:db8:1:2:3:4:5:6", 64, "2001:db8:1:2:0:0:0:0/64"],
    ["compressed, upper case, zone", "2001:DB8:1:2::7%eth0", 64, "2001:db8:1:2:0:0:0:0/64"],
    ["leading zeros", "2001:0db8:0001:0002:0000:0000:0000:0001", 64, "2001:db8:1:2:0:0:0:0/64"],
    ["a /56 cuts inside a group", "2001:db8:1:2ff::1", 56, "2001:db8:1:200:0:0:0:0/56"],
    ["a /128 keeps it all", "2001:db8::1", 128, "2001:db8:0:0:0:0:0:1/128"],
    ["IPv4-mapped as its IPv4", "::ffff:192.0.2.1", 64, "192.0.2.1"],
    ["loopback", "::1", 64, "0:0:0:0:0:0:0:0/64"],
    ["unparseable as itself", "2001:db8:::1", 64, "2001:db8:::1"],
  ])("%s", (_name, address, prefix, key) => {
    expect(addressKey(address, prefix)).toBe(key);
  });
});
