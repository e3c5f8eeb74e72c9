import { describe, expect, it } from "vitest";
import { privateSourceHosts } from "../../../src/core/private-source-hosts.ts";

describe("privateSourceHosts", () => {
  it("is empty when the variable is unset or blank", () => {
    expect(privateSourceHosts({})).toEqual([]);
    expect(privateSourceHosts({ RETRACE_PRIVATE_SOURCE_HOSTS: " , ," })).toEqual([]);
  });

  it("trims and lower-cases each host, keeping a port", () => {
    expect(
      privateSourceHosts({ RETRACE_PRIVATE_SOURCE_HOSTS: " Git.Corp.Example , 10.0.0.5:8443,," }),
    ).toEqual(["git.corp.example", "10.0.0.5:8443"]);
  });
});
