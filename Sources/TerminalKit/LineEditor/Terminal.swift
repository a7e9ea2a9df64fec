#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Facts about the process's terminal.
public enum Terminal {
    /// True when both standard input and standard output are terminals: only then is there a prompt and
    /// line editing (libedit edits nothing otherwise).
    public static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

    /// True when standard output is a terminal (progress lines are drawn only then).
    public static var outputIsTerminal: Bool { isatty(1) == 1 }

    /// The width of the terminal on standard output, nil when it is not a terminal or does not say.
    public static var columns: Int? { columns(of: 1) }

    /// The width of the terminal on `descriptor`, nil when it is not a terminal or does not say.
    public static func columns(of descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The height of the terminal on `descriptor`, nil when it is not a terminal or does not say.
    public static func rows(of descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }

    /// The size of one character cell in pixels on `descriptor`, from the window size the terminal reports
    /// (`TIOCGWINSZ`'s pixel fields, which kitty, WezTerm, foot and xterm fill); nil when it reports none.
    public static func cellPixels(of descriptor: Int32) -> (width: Int, height: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0,
            size.ws_xpixel >= size.ws_col, size.ws_ypixel >= size.ws_row
        else { return nil }
        return (Int(size.ws_xpixel) / Int(size.ws_col), Int(size.ws_ypixel) / Int(size.ws_row))
    }
}
