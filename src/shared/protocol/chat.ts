// Owned by the chat feature: messages of the chat webview (see ARCHITECTURE.md).
export {};
