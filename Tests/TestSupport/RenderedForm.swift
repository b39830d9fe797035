import Foundation

/// A form as a browser would submit it, read from a rendered page: its method, action, encoding and named
/// controls (including those outside it that name it with `form="id"`, and leaving out those inside it that name
/// another). Our templates always quote attribute values, so a tag scanner is enough.
public struct RenderedForm: CustomStringConvertible {
    public struct Control: Sendable {
        /// `input`, `select`, `textarea` or `button`.
        public var tag: String
        /// The input's type (`text` for a textarea or select; `submit` for a button without one).
        public var type: String
        public var name: String
        public var value: String

        public init(tag: String, type: String, name: String, value: String) {
            self.tag = tag
            self.type = type
            self.name = name
            self.value = value
        }
    }

    public var id: String?
    public var method: String
    /// The action without its query.
    public var action: String
    public var multipart: Bool
    public var controls: [Control] = []
    /// Where it was rendered.
    public var page: String

    public init(id: String? = nil, method: String, action: String, multipart: Bool, controls: [Control] = [], page: String) {
        self.id = id
        self.method = method
        self.action = action
        self.multipart = multipart
        self.controls = controls
        self.page = page
    }

    public var names: Set<String> { Set(controls.map(\.name)) }

    /// What tells this form from another with the same action: its field names, and the value of a hidden `action`
    /// (the owner's page has one form per thing to do to a member).
    public var kind: String {
        let fields = controls.map { $0.type == "hidden" && $0.name == "action" ? "action=\($0.value)" : $0.name }
        return method + " " + action + " " + Set(fields).sorted().joined(separator: ",")
    }

    /// What a browser sends when `pressed` submits this form: every named control's value, `values[name]` standing
    /// in for what a person types (or for a token the browser's cookie holds), the first radio button of each group
    /// and every checkbox ticked; a text field nobody typed into keeps its value, or gets "x" when it has none. File
    /// inputs are the caller's to attach.
    public func submission(_ values: [String: String] = [:], pressing pressed: Control? = nil) -> [(String, String)] {
        var fields: [(String, String)] = []
        var radios: Set<String> = []
        for control in controls {
            switch control.type {
            case "submit", "button", "reset", "file": continue
            case "radio": if radios.insert(control.name).inserted { fields.append((control.name, control.value)) }
            case "checkbox": fields.append((control.name, control.value.isEmpty ? "on" : control.value))
            case "hidden": fields.append((control.name, values[control.name] ?? control.value))
            default: fields.append((control.name, values[control.name] ?? (control.value.isEmpty ? "x" : control.value)))
            }
        }
        if let pressed, !pressed.name.isEmpty { fields.append((pressed.name, pressed.value)) }
        return fields
    }

    public var description: String { "\(method.uppercased()) \(action) (on \(page)) with \(names.sorted())" }

    /// Every form of `html`, in document order. What a `<template>` holds is inert (a script's shell), so it is
    /// left out; the page that renders the same partial with values has the real forms.
    public static func all(in html: String, page: String) -> [RenderedForm] {
        let tags = scan(html)
        var forms: [RenderedForm] = []
        var open: Int?
        var pending: [(form: String, control: Control)] = []
        var inert = 0
        for (index, tag) in tags.enumerated() {
            if tag.name == "template" { inert += 1 }
            if tag.name == "/template" { inert -= 1 }
            guard inert == 0 else { continue }
            switch tag.name {
            case "form":
                let action = tag.attributes["action"] ?? page
                forms.append(
                    RenderedForm(
                        id: tag.attributes["id"], method: (tag.attributes["method"] ?? "get").lowercased(),
                        action: String(action.split(separator: "?", maxSplits: 1).first ?? ""),
                        multipart: tag.attributes["enctype"] == "multipart/form-data", page: page))
                open = forms.count - 1
            case "/form":
                open = nil
            case "input", "select", "textarea", "button":
                guard let name = tag.attributes["name"], !name.isEmpty else { continue }
                let type = (tag.attributes["type"] ?? (tag.name == "button" ? "submit" : "text")).lowercased()
                let value = tag.name == "select" ? firstOption(after: index, in: tags) : tag.attributes["value"] ?? ""
                let control = Control(tag: tag.name, type: tag.name == "select" ? "text" : type, name: name, value: value)
                if let owner = tag.attributes["form"] {
                    pending.append((owner, control))
                } else if let open {
                    forms[open].controls.append(control)
                }
            default:
                continue
            }
        }
        for (owner, control) in pending {
            if let index = forms.firstIndex(where: { $0.id == owner }) { forms[index].controls.append(control) }
        }
        return forms
    }

    struct Tag {
        var name: String
        var attributes: [String: String]
    }

    static func firstOption(after index: Int, in tags: [Tag]) -> String {
        tags[(index + 1)...].first { $0.name == "option" }?.attributes["value"] ?? ""
    }

    static let tagPattern = try! NSRegularExpression(pattern: #"<(/?[a-zA-Z]+)((?:\s+[a-zA-Z:-]+(?:="[^"]*")?)*)\s*/?>"#)
    static let attributePattern = try! NSRegularExpression(pattern: #"([a-zA-Z:-]+)(?:="([^"]*)")?"#)

    static func scan(_ html: String) -> [Tag] {
        let text = html as NSString
        return tagPattern.matches(in: html, range: NSRange(location: 0, length: text.length)).map { match in
            let attributesText = text.substring(with: match.range(at: 2))
            var attributes: [String: String] = [:]
            for attribute in attributePattern.matches(in: attributesText, range: NSRange(location: 0, length: (attributesText as NSString).length)) {
                let name = (attributesText as NSString).substring(with: attribute.range(at: 1)).lowercased()
                let value = attribute.range(at: 2).location == NSNotFound ? "" : (attributesText as NSString).substring(with: attribute.range(at: 2))
                attributes[name] = unescape(value)
            }
            return Tag(name: text.substring(with: match.range(at: 1)).lowercased(), attributes: attributes)
        }
    }

    /// The links of a page to other pages of the site (no assets), without fragments.
    public static func links(in html: String) -> [String] {
        scan(html).filter { $0.name == "a" }.compactMap { $0.attributes["href"] }.compactMap { href in
            guard href.hasPrefix("/"), !href.hasPrefix("//") else { return nil }
            return String(href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        }
    }
}
