// One rule for every tool that hands the model many paths at once (find_files, search_text): a path is shown only
// when where it really is lies inside a workspace folder and outside any `.git` folder, the same places
// list_directory and read_file reach. findFiles follows folder symlinks, so without this a link in the workspace
// would show the model the names of files outside it, or inside a repository's .git.
import { containingFolder, matchIgnored, relativeTo } from '../agent';
import { realPathOf } from './resolve';

/** True when the model may see `path` (absolute, local): its real path is in a workspace folder and not in `.git`. */
export async function visibleToModel(
  path: string,
  folderReals: readonly string[],
  caseInsensitive?: boolean,
): Promise<boolean> {
  const real = (await realPathOf(path).catch(() => undefined))?.real;
  if (real === undefined) return false;
  const folder = containingFolder(real, folderReals, { caseInsensitive });
  if (folder === undefined) return false;
  return matchIgnored(relativeTo(real, folder) || '.', ['.git']) === undefined;
}
