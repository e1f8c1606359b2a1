import Foundation

/// Whether a program Lifeboat was asked to run could start at all. A program that is not installed, is
/// misspelled or is not executable never ran, so nothing it would have done can be judged: that is an error of
/// the environment (exit 2, or a "not run" cell with this reason), never a finding about the program.
///
/// This is the one place that decides it, before a run (`preflight(command:environment:)`, for what can be
/// checked from the command line alone) and after a program ended (`reason(exitCode:signal:output:)`, from the
/// shell's own statuses), for `command` steps, sidecars and tool recipes alike.
public enum EnvironmentFailure {
    /// The shell's statuses for a command it could not run (POSIX, Shell Command Language 2.8.2): 127 when the
    /// command was not found, 126 when it was found but could not be executed.
    public static let notFoundStatus: Int32 = 127
    public static let notExecutableStatus: Int32 = 126

    /// The reason, with its fix, when a program run through the shell ended with 126 or 127, or an interpreter
    /// could not open its script (status 2 with the interpreter's own message last); nil otherwise (an ordinary
    /// failure is the program's own, and may be a finding).
    public static func reason(exitCode: Int32, signal: Int32?, output: String) -> String? {
        guard signal == nil else { return nil }
        let said = telling(output)
        switch exitCode {
        case notFoundStatus:
            return "a program was not found (shell status 127)\(said.map { ": \($0)" } ?? ""); install it (the recipes' tools: run scripts/setup.sh) or correct its name or PATH"
        case notExecutableStatus:
            return "a program could not be executed (shell status 126)\(said.map { ": \($0)" } ?? ""); make it executable (chmod +x FILE) or run it with its interpreter (sh FILE)"
        case interpreterStatus where lastLine(output).map(isOpenFailure) == true:
            return "an interpreter could not open its script (status 2): \(lastLine(output) ?? ""); correct the script's path"
        default:
            return nil
        }
    }

    /// The status dash, python and perl end with when the script they were given cannot be opened (with their
    /// own message as the last line: `isOpenFailure`), for a script the command line does not show to the
    /// preflight (inside a wrapper script, or behind a variable).
    public static let interpreterStatus: Int32 = 2

    /// The interpreter's own message for a script it cannot open: dash's "sh: 0: cannot open FILE: No such file"
    /// (older: "Can't open FILE"; line 0, before any line of a script was read: a redirection a script makes
    /// fails with its own line number, "backup.sh: 3: cannot open …", and that is the program's failure),
    /// python's "can't open file 'FILE': [Errno 2] ...", perl's "Can't open perl script".
    static func isOpenFailure(_ line: String) -> Bool {
        line.range(of: #"^[^:]+: 0: (cannot open|Can't open) "#, options: .regularExpression) != nil
            || line.contains(": can't open file ") && line.contains("[Errno ")
            || line.hasPrefix("Can't open perl script ")
    }

    static func lastLine(_ output: String) -> String? {
        output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.last { !$0.isEmpty }.map { String($0.prefix(300)) }
    }

    /// The reason, with its fix, when `command` (a `/bin/sh -c` command line) names a program that cannot run:
    /// its first word not found on PATH, or a path that does not exist or is not executable; for an interpreter
    /// (`sh FILE`, `python3 -u FILE`, `perl FILE`: `scriptIndex`) a script that does not exist or cannot be read
    /// (the shell would say "cannot open", python "can't open file", both with status 2, and a run would judge it). `$NAME` and `${NAME}` of `environment` are
    /// (and of this process's environment) expanded; a command whose first word the shell would compute (other variables, substitutions, builtins,
    /// assignments) is left to the run, where `reason(exitCode:...)` judges how it ended.
    public static func preflight(command: String, environment: [String: String] = [:], directory: String? = nil) -> String? {
        let environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        guard let words = simpleWords(command, environment: environment), let first = words.first else { return nil }
        if shellBuiltins.contains(first) || first.contains("=") && !first.hasPrefix("/") { return nil }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        func absolute(_ name: String) -> String {
            name.hasPrefix("/") ? name : ((directory ?? FileManager.default.currentDirectoryPath) as NSString).appendingPathComponent(name)
        }
        if first.contains("/") {
            let file = absolute(first)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else {
                return "`\(command)`: \(file) does not exist; correct the path"
            }
            guard FileManager.default.isExecutableFile(atPath: file) else {
                return "`\(command)`: \(file) is not executable; make it executable (chmod +x \(file)) or run it with its interpreter (sh \(file))"
            }
        } else if lookUp(first, path: path) == nil {
            return "`\(command)`: \(first) is not found on PATH (\(path)); install it (the recipes' tools: run scripts/setup.sh) or correct its name"
        }
        // An interpreter's script: `sh FILE` needs FILE readable, not executable.
        if let index = scriptIndex(words) {
            let script = absolute(words[index])
            if !FileManager.default.isReadableFile(atPath: script) {
                return "`\(command)`: the script \(script) does not exist or cannot be read; correct the path"
            }
        }
        return nil
    }

    /// The first executable `name` in the directories of `path`.
    static func lookUp(_ name: String, path: String) -> String? {
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The shell's line that names the failure ("sh: 1: bakup: not found", "Permission denied"), else the last.
    static func telling(_ output: String) -> String? {
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let line = lines.last { $0.contains("not found") || $0.contains("Permission denied") || $0.contains("No such file") } ?? lines.last
        return line.map { String($0.prefix(300)) }
    }

    /// The command's first words (the program, its options and an interpreter's script) as the shell would see them,
    /// when they can be known without running anything: quotes removed, `$NAME`/`${NAME}` of `environment`
    /// expanded. Words stop at the first one the shell must compute (another variable, a substitution, a glob);
    /// nil when that is the first.
    static func simpleWords(_ command: String, environment: [String: String]) -> [String]? {
        wordSpans(command, environment: environment)?.map(\.text)
    }

    /// Where an interpreter's script stands in a command's words (`words[0]` the program): the first argument
    /// that is not an option (`python3 -u backup.py`, `bash -x backup.sh`, `perl -w backup.pl`), skipping the
    /// value of an option that takes one (`python3 -W ignore backup.py`); nil when the program is no
    /// interpreter, when an option says the code comes from elsewhere (`sh -c`, `python3 -m`, `perl -e`, `-` for
    /// the standard input), or when the script's word is not known (computed by the shell, or past what was read).
    static func scriptIndex(_ words: [String]) -> Int? {
        guard let first = words.first, let family = interpreterFamily((first as NSString).lastPathComponent) else { return nil }
        let (elsewhere, withValue) = interpreterOptions[family] ?? ([], [])
        var index = 1
        while index < words.count {
            let word = words[index]
            if word == "--" { return index + 1 < words.count ? index + 1 : nil }
            if word == "-" { return nil }
            guard word.hasPrefix("-") else { return index }
            if elsewhere.contains(String(word.prefix { $0 != "=" })) { return nil }
            index += withValue.contains(word) ? 2 : 1
        }
        return nil
    }

    /// Per interpreter family: the options after which no script file follows (the code is on the command line,
    /// a module, or the standard input), and the options whose value is the next word. Options not named are
    /// flags (`sh -e`, `python3 -u`, `perl -w`).
    static let interpreterOptions: [String: (elsewhere: Set<String>, withValue: Set<String>)] = [
        "sh": (["-c", "-s"], ["-o", "+o"]),
        "python": (["-c", "-m"], ["-W", "-X", "--check-hash-based-pycs"]),
        "perl": (["-e", "-E"], ["-I", "-M", "-m", "-x"]),
        "ruby": (["-e"], ["-I", "-r", "-C", "-E"]),
        "node": (["-e", "--eval", "-p", "--print", "-i", "--interactive", "-c", "--check"], ["-r", "--require", "--import"]),
    ]

    /// The word of `command` that names the file it runs, as written (no variable in it), with where it stands in
    /// `command` (quotes included): the program itself when the first word is a path (`./backup.sh`), or an
    /// interpreter's script (`sh my-backup.sh`, `python3 -u backup.py`). Nil when the command runs no file it
    /// names (a program found on PATH with no script, a builtin, a word the shell computes). `lifeboat try`
    /// copies that file beside the scenarios it writes, so they run from any folder.
    public static func scriptWord(of command: String) -> (text: String, range: Range<String.Index>)? {
        guard let words = wordSpans(command, environment: [:]), let first = words.first else { return nil }
        let chosen: (text: String, span: Range<Int>)
        if first.text.contains("/") {
            chosen = first
        } else if let index = scriptIndex(words.map(\.text)) {
            chosen = words[index]
        } else {
            return nil
        }
        let start = command.index(command.startIndex, offsetBy: chosen.span.lowerBound)
        return (chosen.text, start..<command.index(start, offsetBy: chosen.span.count))
    }

    /// The family of an interpreter (`sh` for the shells, `python` for `python3` and `python3.12`, ...), or nil
    /// for a program that is no interpreter: a name in `interpreters`, or one with a version number after it.
    static func interpreterFamily(_ program: String) -> String? {
        let name = String(program.prefix { !$0.isNumber && $0 != "." })
        guard interpreters.contains(program) || interpreters.contains(name) && program.dropFirst(name.count).allSatisfy({ $0.isNumber || $0 == "." })
        else { return nil }
        return ["bash", "dash", "zsh", "ksh", "sh"].contains(name) ? "sh" : name
    }

    /// `simpleWords` with where each word stands in the command (character offsets, quotes included).
    static func wordSpans(_ command: String, environment: [String: String], limit: Int = 8) -> [(text: String, span: Range<Int>)]? {
        var words: [(text: String, span: Range<Int>)] = []
        var word = ""
        var inWord = false
        var start = 0
        var quote: Character?
        let characters = Array(command)
        var index = 0
        func expand() -> Bool {
            // At a `$`: replace a known variable's name with its value; refuse anything else.
            var name = ""
            var end = index + 1
            if end < characters.count, characters[end] == "{" {
                end += 1
                while end < characters.count, characters[end] != "}" { name.append(characters[end]); end += 1 }
                end += 1
            } else {
                while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "_" {
                    name.append(characters[end]); end += 1
                }
            }
            guard let value = environment[name] else { return false }
            if !inWord { start = index }
            word += value
            index = min(end, characters.count)
            inWord = true
            return true
        }
        let known = { words.isEmpty ? nil : words }
        while index < characters.count, words.count < limit {
            let c = characters[index]
            if let open = quote {
                if c == open { quote = nil; index += 1; continue }
                if open == "\"", c == "$" { guard expand() else { return known() }; continue }
                if open == "\"", c == "`" || c == "\\" { return known() }
                word.append(c); index += 1
                continue
            }
            switch c {
            case "'", "\"":
                if !inWord { start = index }
                quote = c; inWord = true; index += 1
            case " ", "\t":
                if inWord { words.append((word, start..<index)); word = ""; inWord = false }
                index += 1
            case ";", "|", "&", "<", ">", "(", ")", "\n":
                if inWord { words.append((word, start..<index)) }
                return words
            case "$": guard expand() else { return known() }
            case "`", "\\", "*", "?", "[", "~", "{", "}": return known()
            default:
                if !inWord { start = index }
                word.append(c); inWord = true; index += 1
            }
        }
        if quote != nil { return known() }
        if inWord, words.count < limit { words.append((word, start..<index)) }
        return words
    }

    /// Words a shell runs itself (POSIX special and regular builtins, reserved words): no file to look for.
    static let shellBuiltins: Set<String> = [
        ".", ":", "break", "cd", "command", "continue", "eval", "exec", "exit", "export", "readonly", "return", "set",
        "shift", "times", "trap", "unset", "alias", "bg", "fc", "fg", "getopts", "hash", "jobs", "read", "type",
        "ulimit", "umask", "unalias", "wait", "true", "false", "echo", "printf", "test", "[", "if", "then", "else",
        "elif", "fi", "do", "done", "case", "esac", "while", "until", "for", "in", "!", "{", "}", "time", "source",
    ]

    /// Programs whose first argument is a script they read (so it must exist, but need not be executable).
    static let interpreters: Set<String> = ["sh", "bash", "dash", "zsh", "ksh", "python", "python3", "perl", "ruby", "node"]
}
