import Testing

@testable import TerminalKit

@Suite struct TokenizerTests {
    private func texts(_ line: String) throws -> [[String]] {
        try Tokenizer.statements(in: line).map { $0.words.map(\.text) }
    }

    private func error(_ line: String) -> GrammarError? {
        do {
            _ = try Tokenizer.statements(in: line)
            return nil
        } catch {
            return error
        }
    }

    @Test func splitsOnBlanksAndKeepsColumns() throws {
        let statements = try Tokenizer.statements(in: "  ls\t-l   DCIM ")
        #expect(statements.count == 1)
        #expect(statements[0].words.map(\.text) == ["ls", "-l", "DCIM"])
        #expect(statements[0].words.map(\.column) == [3, 6, 11])
        #expect(statements[0].words.allSatisfy { !$0.isQuoted })
    }

    @Test func singleQuotesKeepEverything() throws {
        #expect(try texts(#"fetch 'My Photo; #1 \n "x".jpg'"#) == [["fetch", #"My Photo; #1 \n "x".jpg"#]])
    }

    @Test func doubleQuotesKnowThreeEscapes() throws {
        #expect(try texts(#"select "a \"b\" c\\d \$e \x""#) == [["select", #"a "b" c\d $e \x"#]])
    }

    @Test func backslashEscapesOutsideQuotes() throws {
        #expect(try texts(##"fetch My\ Photo.jpg a\;b \#c"##) == [["fetch", "My Photo.jpg", "a;b", "#c"]])
    }

    @Test func partsOfOneWordJoin() throws {
        let words = try Tokenizer.words(in: #"DCIM/"My Photo"\'s.jpg"#)
        #expect(words.map(\.text) == ["DCIM/My Photo's.jpg"])
        #expect(words[0].isQuoted)
    }

    @Test func emptyQuotesMakeAnEmptyWord() throws {
        #expect(try texts("set title ''") == [["set", "title", ""]])
    }

    @Test func semicolonsSeparateCommandsAndEmptyOnesAreSkipped() throws {
        #expect(try texts(";; ls;pwd ;  ; cd DCIM;") == [["ls"], ["pwd"], ["cd", "DCIM"]])
        #expect(try texts("   ") == [])
        #expect(try texts("") == [])
    }

    @Test func hashStartsACommentOnlyAtAWordStart() throws {
        #expect(try texts("ls # list it; pwd") == [["ls"]])
        #expect(try texts("fetch a#b") == [["fetch", "a#b"]])
        #expect(try texts("# only a comment") == [])
        #expect(try texts("fetch '#x'") == [["fetch", "#x"]])
    }

    @Test func leadingDashMarksAFailureAsIgnored() throws {
        let statements = try Tokenizer.statements(in: "-rm x; rm y; '-rm' z; \\-rm w")
        #expect(statements.map(\.ignoresFailure) == [true, false, false, false])
        #expect(statements.map { $0.words[0].text } == ["rm", "rm", "-rm", "-rm"])
        #expect(statements[0].words[0].column == 2)
        #expect(statements[0].column == 1)
    }

    @Test func dashOnlyAppliesToTheCommandName() throws {
        let statement = try Tokenizer.statements(in: "ls -l")[0]
        #expect(!statement.ignoresFailure)
        #expect(statement.words.map(\.text) == ["ls", "-l"])
    }

    @Test func errorsPointAtTheColumn() {
        #expect(error(#"fetch "abc"#) == GrammarError(.unterminatedDoubleQuote, column: 7))
        #expect(error("ls; select 'a b") == GrammarError(.unterminatedSingleQuote, column: 12))
        #expect(error(#"fetch abc\"#) == GrammarError(.trailingBackslash, column: 10))
        #expect(error("ls; - ; pwd") == GrammarError(.missingCommandAfterDash, column: 5))
        #expect(error(#"é "x"#)?.column == 3)
    }

    @Test func unicodeColumnsCountCharacters() throws {
        let words = try Tokenizer.words(in: "info été.jpg x")
        #expect(words.map(\.column) == [1, 6, 14])
    }

    @Test func quotingDecidesWhatIsAGlob() throws {
        let words = try Tokenizer.words(in: #"*.JPG '*.JPG' \*.JPG "My "*.jpg a[1 DJI_000?.JPG"#)
        #expect(words.map(\.isGlob) == [true, false, false, true, false, true])
        #expect(words[3].glob?.matches("My Photo.jpg") == true)
        #expect(words[3].glob?.matches("MyPhoto.jpg") == false)
    }

    @Test func hostileInputNeverCrashes() throws {
        let nasty = ["\u{0}", "\\", "'", "\"", "\"\\", "-", "- -", ";-", "#'", "\u{1B}[2J", "a\u{301}'", "\u{FEFF};;"]
        for line in nasty {
            _ = try? Tokenizer.statements(in: line)
        }
        let long = String(repeating: "a\\ b 'c' \"d\" ; ", count: 5000)
        #expect(try Tokenizer.statements(in: long).count == 5000)
    }

    /// `CMD &` runs CMD as a job and separates it from what follows, as in a POSIX shell; a quoted or
    /// escaped `&` is part of a name.
    @Test func anAmpersandRunsTheCommandBeforeItAsAJob() throws {
        let statements = try Tokenizer.statements(in: "fetch *.MP4 & ls; import&")
        #expect(statements.map { $0.words.map(\.text) } == [["fetch", "*.MP4"], ["ls"], ["import"]])
        #expect(statements.map(\.runsInBackground) == [true, false, true])
        #expect(try texts(#"fetch 'Tom&Jerry.JPG' Tom\&Jerry.JPG"#) == [["fetch", "Tom&Jerry.JPG", "Tom&Jerry.JPG"]])
        #expect(try Tokenizer.statements(in: "fetch x &;").map(\.runsInBackground) == [true])
        #expect(error("ls; &") == GrammarError(.ampersandWithoutCommand, column: 5))
    }

    /// A pipe or a redirection, which a POSIX shell has and this grammar has not, is refused with a hint
    /// rather than taken for a file name; quoted or inside a word, it is part of a name.
    @Test func aPipeOrARedirectionIsRefusedWithAHint() throws {
        #expect(error("ls -1 | head") == GrammarError(.pipeOrRedirection("|"), column: 7))
        #expect(error("ls > list.txt") == GrammarError(.pipeOrRedirection(">"), column: 4))
        #expect(error("cd DCIM; ls >> x") == GrammarError(.pipeOrRedirection(">>"), column: 13))
        #expect(GrammarError(.pipeOrRedirection("|"), column: 7).message.contains("mediashell -c 'ls -1' | head"))
        #expect(try texts("fetch '|' \\> a|b x>y") == [["fetch", "|", ">", "a|b", "x>y"]])
    }
}
