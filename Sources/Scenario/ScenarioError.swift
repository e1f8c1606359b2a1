/// A problem in a scenario file, pointing at the place: `file:line:column: message`.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String
    /// Further problems found in the same pass (every unknown key of a file), each at its own place.
    public var others: [ScenarioError] = []

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// One `file:line:column: error: message` line per problem.
    public var description: String {
        ([self] + others).map { "\($0.file):\($0.line):\($0.column): error: \($0.message)" }.joined(separator: "\n")
    }
}
