import Foundation
import Shell

exit(Entrypoint.run(CommandLine.arguments))
