/**
 * The webview's side of the host channel, typed by the editor's protocol: `post` sends only the
 * messages of its union. Outside VS Code (a test page) messages go to the parent frame instead.
 */
interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export interface HostChannel<ToHost> {
  post(message: ToHost): void;
  /** What `setState` saved before this webview was last hidden or reloaded, if anything. */
  getState(): unknown;
  setState(state: unknown): void;
}

/** The channel to the host; call once (VS Code allows one `acquireVsCodeApi()` per page). */
export function hostChannel<ToHost>(): HostChannel<ToHost> {
  const api: VsCodeApi =
    typeof acquireVsCodeApi === 'function'
      ? acquireVsCodeApi()
      : { postMessage: (m) => window.parent.postMessage(m, '*'), getState: () => undefined, setState: () => undefined };
  return { post: (m) => api.postMessage(m), getState: () => api.getState(), setState: (s) => api.setState(s) };
}
