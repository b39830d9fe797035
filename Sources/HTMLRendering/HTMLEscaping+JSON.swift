extension HTMLEscaping {
    /// Serialises a value as JSON that is safe inside `<script type="application/json">`.
    ///
    /// `<`, `>` and `&` are written as `\u003c`, `\u003e`, `\u0026`, so the output can never close the element or
    /// open a comment; U+2028 and U+2029 are escaped as well. Object keys are sorted, so output is deterministic.
    /// Non-finite doubles become `null`; ``SafeHTML`` becomes a string of its markup.
    public static func json(_ value: TemplateValue) -> String {
        building(capacity: 64) { appendJSON(value, to: &$0) }
    }

    static func appendJSON(_ value: TemplateValue, to output: inout [UInt8]) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number):
            output.append(contentsOf: String(number).utf8)
        case .double(let number):
            output.append(contentsOf: (number.isFinite ? "\(number)" : "null").utf8)
        case .string(let text):
            appendJSONString(text, to: &output)
        case .safe(let markup):
            appendJSONString(markup.html, to: &output)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (offset, item) in items.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                appendJSON(item, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .dictionary(let entries):
            output.append(UInt8(ascii: "{"))
            for (offset, key) in entries.keys.sorted().enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                appendJSONString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                appendJSON(entries[key] ?? .null, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func appendJSONString(_ text: String, to output: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "\n"): output.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): output.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): output.append(contentsOf: #"\t"#.utf8)
                case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), 0..<0x20:
                    output.append(contentsOf: #"\u00"#.utf8)
                    output.append(hex[Int(byte >> 4)])
                    output.append(hex[Int(byte & 0xF)])
                case 0xE2 where index + 1 < bytes.count && bytes[index] == 0x80 && (bytes[index + 1] | 1) == 0xA9:
                    // U+2028 and U+2029 (E2 80 A8/A9) end a line in older JavaScript engines.
                    output.append(contentsOf: (bytes[index + 1] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
                    index += 2
                default:
                    output.append(byte)
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
