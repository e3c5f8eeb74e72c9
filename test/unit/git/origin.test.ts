/**
 * Where the host's git may fetch a checkout's origin from (src/git/origin.ts): an internal address is refused
 * unless the operator lists the host, and a name is resolved once and git pinned to that answer (no second
 * look-up for a rebinding name server to answer differently). Resolvers are passed in; git's own use of the pin
 * on the real engine is the eleventh wave (test/integration/attacks/redteam11.test.ts).
 */
import { describe, expect, it } from "vitest";
import { isLocalOrigin, originAccess } from "../../../src/git/origin.ts";

const refused = async (url: string, hosts: string[] = [], answer: string[] = []) => {
  const a = await originAccess(url, hosts, async () => answer);
  return "refused" in a ? a.refused : null;
};

describe("an origin on a loopback or private address is refused", () => {
  it.each([
    "https://127.0.0.1:8443/o/r.git",
    "ssh://git@127.0.0.1:2222/o/r.git",
    "git@[::1]:o/r.git",
    "https://localhost/o/r.git",
    "https://10.1.2.3/o/r.git",
    "ssh://169.254.169.254/x",
  ])("%s, naming the operator's variable", async (url) => {
    expect(await refused(url)).toMatch(/loopback or private address.*RETRACE_PRIVATE_SOURCE_HOSTS/);
  });

  it.each([
    ["https://git.example.test/o/r.git", ["93.184.215.14", "127.0.0.1"], "127.0.0.1"],
    ["git@git.example.test:o/r.git", ["::ffff:192.168.1.5"], "::ffff:192.168.1.5"],
    ["ssh://git.example.test/o/r.git", ["fd00::2"], "fd00::2"],
  ])("%s resolving to %j names the internal address", async (url, answer, bad) => {
    expect(await refused(url, [], answer)).toContain(`(git.example.test resolves to ${bad})`);
  });

  it("a name that does not resolve is refused (a rebinding server can fail the check and answer git)", async () => {
    expect(await refused("https://git.example.test/o/r.git")).toMatch(/which does not resolve/);
    const a = await originAccess("https://git.example.test/o/r.git", [], () =>
      Promise.reject(new Error("x")),
    );
    expect(a).toEqual({ refused: expect.stringMatching(/does not resolve/) });
  });

  it("a host that is not a DNS name never reaches ssh's command line", async () => {
    expect(await refused("git@a;touch$HOME:o/r.git", [], ["93.184.215.14"])).toMatch(/not a DNS name/);
  });
});

describe("a public origin is fetched pinned to the address checked", () => {
  it("https: curl's resolve list holds the name, port and the one address", async () => {
    expect(await originAccess("https://git.example.test/o/r.git", [], async () => ["93.184.215.14"])).toEqual(
      {
        config: [["http.curloptResolve", "git.example.test:443:93.184.215.14"]],
      },
    );
    expect(
      await originAccess("https://Git.Example.test:8443/r.git", [], async () => ["2606:4700::1111"]),
    ).toEqual({
      config: [["http.curloptResolve", "git.example.test:8443:[2606:4700::1111]"]],
    });
  });

  it("ssh (URL and scp forms): HostName is the address, the host key still checked by name", async () => {
    for (const url of ["ssh://git@git.example.test:2222/o/r.git", "git@git.example.test:o/r.git"])
      expect(await originAccess(url, [], async () => ["140.82.112.3"])).toEqual({
        config: [
          [
            "core.sshCommand",
            "ssh -o BatchMode=yes -o HostName=140.82.112.3 -o HostKeyAlias=git.example.test",
          ],
        ],
      });
  });

  it("the resolver is asked once, so a second answer can never be used", async () => {
    const answers = [["93.184.215.14"], ["127.0.0.1"]];
    let calls = 0;
    const a = await originAccess("https://git.example.test/o/r.git", [], async () => answers[calls++]!);
    expect(calls).toBe(1);
    expect(a).toEqual({ config: [["http.curloptResolve", "git.example.test:443:93.184.215.14"]] });
  });
});

describe("what the operator allows, and what is not judged here (controls)", () => {
  it("a literal public address, a local path: no pin needed", async () => {
    expect(await originAccess("https://93.184.215.14/o/r.git", [])).toEqual({ config: [] });
    expect(await originAccess("git@140.82.112.3:o/r.git", [])).toEqual({ config: [] });
    expect(await originAccess("/srv/git/r.git", [])).toEqual({ config: [] });
  });

  it("a private host the operator lists passes, by host or host:port, and stays pinned", async () => {
    expect(await originAccess("https://10.1.2.3:8443/o/r.git", ["10.1.2.3:8443"])).toEqual({ config: [] });
    expect(
      await originAccess("https://git.corp.test/o/r.git", ["git.corp.test"], async () => ["10.0.0.9"]),
    ).toEqual({ config: [["http.curloptResolve", "git.corp.test:443:10.0.0.9"]] });
    expect(await originAccess("https://git.corp.test/o/r.git", ["git.corp.test"], async () => [])).toEqual({
      config: [],
    });
  });
});

describe("isLocalOrigin", () => {
  it.each([
    ["/srv/git/r.git", true],
    ["../other", true],
    ["file:///srv/git/r.git", true],
    ["C:/git/r", true],
    ["https://github.com/o/r.git", false],
    ["ssh://git@github.com/o/r.git", false],
    ["git@github.com:o/r.git", false],
  ])("%s → %s", (url, local) => {
    expect(isLocalOrigin(url)).toBe(local);
  });
});
