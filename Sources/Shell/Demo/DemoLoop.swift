import Foundation

/// A stand-in for the interpreter: reads lines, checks them against the command table and echoes the parsed
/// commands, so that editing, completion and Ctrl-C can be tried. The real interpreter replaces it.
struct DemoLoop {
    let table = CommandTable.standard
    let catalog = DemoCatalog()

    func run() -> Int32 {
        let interrupt = try? Interrupt.install()
        let source: LineSource
        var editor: LineEditor?
        if Terminal.isInteractive, let interrupt {
            let engine = CompletionEngine(table: table)
            let catalog = catalog
            do {
                editor = try LineEditor(
                    historyFile: HistoryLocation.path(environment: ProcessInfo.processInfo.environment),
                    interrupt: interrupt, prompt: { "demo:\(catalog.currentFolder)> " },
                    completer: { engine.complete($0, cursor: $1, context: catalog) })
            } catch {
                report("cannot start the line editor: \(error)")
            }
        }
        if let editor {
            print("mediashell demo: commands are checked and echoed, not run. Try Tab, Ctrl-C, 'help'.")
            source = editor
        } else {
            source = PlainLineReader(interrupt: interrupt)
        }
        var status: Int32 = 0
        while true {
            switch source.readLine() {
            case .line(let line):
                switch handle(line, editor: editor) {
                case .next: continue
                case .failed: status = 1
                case .quit: return status
                }
            case .interrupted: continue
            case .endOfInput: return status
            case .failed(let message):
                report(message)
                return 1
            }
        }
    }

    enum Outcome { case next, failed, quit }

    private func handle(_ line: String, editor: LineEditor?) -> Outcome {
        let invocations: [Invocation]
        do {
            invocations = try table.invocations(for: line)
        } catch let error as GrammarError {
            report(line: line, column: error.column, "error: \(error.message)")
            return .failed
        } catch let error as UsageError {
            report(line: line, column: error.column, "error: \(error)")
            return .failed
        } catch {
            report("error: \(error)")
            return .failed
        }
        for invocation in invocations {
            switch invocation.id {
            case .quit: return .quit
            case .help:
                if let name = invocation.arguments.first {
                    print((try? table.help(forName: name.text)) ?? "")
                } else {
                    print(table.helpOverview())
                }
            case .history:
                for (number, entry) in (editor?.historyEntries ?? []).enumerated() {
                    print("\(number + 1)  \(SafeText.display(entry))")
                }
            case .cd:
                if !catalog.changeFolder(to: invocation.arguments.first?.text ?? "/") {
                    report("cd: no such folder")
                }
            default:
                print(describe(invocation))
            }
        }
        return .next
    }

    private func describe(_ invocation: Invocation) -> String {
        var parts = [invocation.command.name]
        if invocation.ignoresFailure { parts.append("(failure ignored)") }
        let options = invocation.command.options.compactMap { option -> String? in
            if invocation.has(option.name) { return "--\(option.name)" }
            return invocation.value(of: option.name).map { "--\(option.name)=\(SafeText.display($0.text))" }
        }
        if !options.isEmpty { parts.append("options: " + options.joined(separator: " ")) }
        let arguments = invocation.arguments.map { word in
            "[\(SafeText.display(word.text))]" + (word.isGlob ? " (glob)" : "")
        }
        if !arguments.isEmpty { parts.append("arguments: " + arguments.joined(separator: " ")) }
        return parts.joined(separator: "  ")
    }

    private func report(line: String, column: Int?, _ message: String) {
        if let column { for marker in ColumnMarker.lines(for: line, column: column) { report(marker) } }
        report(message)
    }

    private func report(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
