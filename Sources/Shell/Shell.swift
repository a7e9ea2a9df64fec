#if canImport(Glibc)
    import Glibc
#endif

/// The shell's entry point, called by the `mediashell` executable.
public enum Shell {
    /// Runs the demo loop until `quit` or the end of input, then exits with its status.
    /// The interpreter will replace the demo.
    public static func main() {
        exit(DemoLoop().run())
    }
}
