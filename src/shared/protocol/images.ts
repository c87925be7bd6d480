// Owned by the images feature: messages of the image panel webview.
export {};
