public enum Shell { public static func main() { print("mediashell") } }
