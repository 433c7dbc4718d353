/** The CLI's version and home, from package.json (esbuild inlines them into the bundle). */
import { repository, version } from '../../package.json';

export const TOOL_VERSION: string = version;
export const TOOL_HOME: string = repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
