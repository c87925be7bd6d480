// Typed messages between the extension host and the webviews, one protocol per webview.
// Each side imports from here; the host validates every incoming message with the guards.
export * from './protocol/chat';
export * from './protocol/images';
