// The shape of one image request, shared by the runner (files as Uris) and the gateway tools' checked input
// (files as the workspace-relative or absolute text a model wrote). Pure: no vscode import.

/** An image request; `File` is how its input files are named. */
export interface ImageRequestOf<File> {
  kind: 'generation' | 'edit';
  prompt: string;
  model?: string;
  size?: string;
  quality?: string;
  n?: number;
  source?: File;
  mask?: File;
  references?: File[];
}
