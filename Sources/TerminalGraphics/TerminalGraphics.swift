// TerminalGraphics module: drawing images in a terminal.
