import Foundation

/// A duration written for a person: `10m`, `90s`, `1h30m`, `1.5h`, or a plain number of seconds.
enum DurationText {
    /// Seconds, or nil when the text is not a duration (or not positive, or longer than a week).
    static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !trimmed.isEmpty else { return nil }
        if let plain = Double(trimmed) { return valid(plain) }
        var total = 0.0
        var number = ""
        for character in trimmed {
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
                continue
            }
            let unit: Double
            switch character {
            case "h": unit = 3600
            case "m": unit = 60
            case "s": unit = 1
            default: return nil
            }
            guard let value = Double(number) else { return nil }
            total += value * unit
            number = ""
        }
        guard number.isEmpty else { return nil }
        return valid(total)
    }

    static func valid(_ seconds: Double) -> Double? {
        seconds.isFinite && seconds > 0 && seconds <= 7 * 24 * 3600 ? seconds : nil
    }
}
