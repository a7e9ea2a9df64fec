import Foundation

/// Writing to the terminal's standard streams, unbuffered for errors.
public enum Console {
    public static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
