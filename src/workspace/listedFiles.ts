/**
 * The files a scenario file's `manifests` stand for, found as `simulate` finds them on the
 * command line (src/cli/files.ts): a file as named, a folder walked for .yaml and .yml files in
 * name order, hidden entries and node_modules skipped, each file once. The editor walks its own
 * file system through `ListingFs`; no Node built-ins here.
 */
export interface ListingFs {
  /** What is at the address; undefined: nothing. */
  kind(address: string): Promise<'file' | 'directory' | undefined>;
  /** A folder's entries: names, and whether each is a folder reached through a symbolic link. */
  children(directory: string): Promise<{ name: string; kind: 'file' | 'directory' | 'other'; symbolicLink: boolean }[]>;
  join(directory: string, name: string): string;
}

export type Listing = { files: string[] } | { missing: string };

/** The walking rules both front ends share: what a folder's entry is, and their order. */
export const isYamlFile = (name: string) => /\.ya?ml$/i.test(name);
export const isSkipped = (name: string) => name.startsWith('.') || name === 'node_modules';
export const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The addresses of the files, in the order the CLI reads them; the first address with nothing at
 * it stops the listing. A folder reached through a symbolic link is not walked (the editor has no
 * real path to tell a link back up the tree from a new folder); the CLI follows it.
 */
export async function listFiles(addresses: readonly string[], fs: ListingFs): Promise<Listing> {
  const files: string[] = [];
  const seen = new Set<string>();
  const add = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    files.push(file);
  };
  const walk = async (directory: string): Promise<void> => {
    for (const entry of (await fs.children(directory)).sort(byName)) {
      if (isSkipped(entry.name)) continue;
      const address = fs.join(directory, entry.name);
      if (entry.kind === 'directory' && !entry.symbolicLink) await walk(address);
      else if (entry.kind === 'file' && isYamlFile(entry.name)) add(address);
    }
  };
  for (const address of addresses) {
    const kind = await fs.kind(address);
    if (kind === undefined) return { missing: address };
    if (kind === 'directory') await walk(address);
    else add(address);
  }
  return { files };
}
