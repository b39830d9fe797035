import HTMLRendering
import Testing

struct SectionTests {
    /// Truthiness follows the brief for every kind of value.
    @Test(
        "if and unless follow truthiness: nil, false, 0, \"\", [] and [:] are false",
        arguments: [
            (TemplateValue.null, false), (.bool(false), false), (.int(0), false), (.double(0), false), (.string(""), false),
            (.array([]), false), (.dictionary([:]), false), (.bool(true), true), (.int(2), true), (.string("0"), true),
            (.array([.null]), true), (.dictionary(["a": .null]), true), (.safe(SafeHTML(unsafeRaw: "x")), true),
        ]
    )
    func truthiness(value: TemplateValue, truthy: Bool) throws {
        let source = "{{#if v}}yes{{else}}no{{/if}}|{{#unless v}}U{{else}}u{{/unless}}"
        #expect(try render(source, ["v": value]) == (truthy ? "yes|u" : "no|U"))
    }

    /// A false condition without else renders nothing.
    @Test("if without else renders nothing when false, and a missing key is false")
    func ifWithoutElse() throws {
        #expect(try render("[{{#if missing}}x{{/if}}]") == "[]")
    }

    /// Loop fields describe the innermost loop.
    @Test("each renders items with @index, @number, @first, @last and @count")
    func eachLoopFields() throws {
        let source = "{{#each items}}{{@index}}/{{@number}}/{{@count}}:{{.}}{{#if @first}}F{{/if}}{{#if @last}}L{{/if}};{{/each}}"
        #expect(try render(source, ["items": ["a", "b", "c"]]) == "0/1/3:aF;1/2/3:b;2/3/3:cL;")
    }

    /// The else branch of each handles empty lists.
    @Test("each renders its else branch when the array is empty or missing")
    func eachElse() throws {
        let source = "<ul>{{#each items}}<li>{{this}}</li>{{else}}<li>none</li>{{/each}}</ul>"
        #expect(try render(source, ["items": []]) == "<ul><li>none</li></ul>")
        #expect(try render(source) == "<ul><li>none</li></ul>")
        #expect(try render(source, ["items": ["<a>"]]) == "<ul><li>&lt;a&gt;</li></ul>")
    }

    /// Iterating a scalar is a template bug, reported with its line.
    @Test("each over a non-array value is a render error")
    func eachNeedsArray() throws {
        let error = try #require(throws: TemplateError.self) { try render("\n{{#each items}}x{{/each}}", ["items": "abc"]) }
        #expect(error.line == 2)
    }

    /// Lookup walks outward through the scopes, innermost first.
    @Test("names are looked up through the scope stack, innermost first")
    func scopeLookup() throws {
        let source =
            "{{#each stories}}{{title}} by {{author.name}} in {{site}} ({{@index}})"
            + "{{#each tags}} [{{.}} {{title}} {{@index}}]{{/each}};{{/each}}"
        let context: TemplateValue = [
            "site": "Grain",
            "title": "outer",
            "author": ["name": "nobody"],
            "stories": [
                ["title": "Sunrise", "author": ["name": "Alice"], "tags": ["sky"]],
                ["author": ["name": "Bob"], "tags": []],
            ],
        ]
        #expect(try render(source, context) == "Sunrise by Alice in Grain (0) [sky Sunrise 0];outer by Bob in Grain (1);")
    }

    /// An explicit null shadows outer values; `this.` stays in the current item.
    @Test("this.name looks only at the current item; a key explicitly set to null stops the lookup")
    func thisAndNull() throws {
        let source = "{{#each items}}[{{this.name}}|{{name}}]{{/each}}"
        let context: TemplateValue = ["name": "root", "items": [["x": 1], ["name": .null], ["name": "n"]]]
        #expect(try render(source, context) == "[|root][|][n|n]")
    }

    /// with pushes its value as a scope and falls back to else when it is falsy.
    @Test("with pushes a scope, falls back to parents, and takes else when the value is falsy")
    func withScope() throws {
        let source = "{{#with author.profile}}{{displayName}} ({{handle}}) on {{site}}{{else}}anonymous{{/with}}"
        let full: TemplateValue = ["site": "Grain", "author": ["profile": ["displayName": "Alice", "handle": "alice.test"]]]
        #expect(try render(source, full) == "Alice (alice.test) on Grain")
        #expect(try render(source, ["site": "Grain"]) == "anonymous")
    }

    /// Numeric path segments index arrays.
    @Test("array elements can be addressed by index in a path")
    func arrayIndex() throws {
        #expect(try render("{{ photos.1.alt }}|{{ photos.9.alt }}", ["photos": [["alt": "a"], ["alt": "b"]]]) == "b|")
    }

    /// Inner loops do not disturb outer loop fields.
    @Test("nested each loops report the innermost loop's fields")
    func nestedLoops() throws {
        let source = "{{#each rows}}{{#each .}}{{@index}}{{/each}}-{{@index}} {{/each}}"
        #expect(try render(source, ["rows": [[1, 2], [3]]]) == "01-0 0-1 ")
    }

    /// Loop fields outside a loop are empty rather than an error.
    @Test("loop fields outside a loop are empty")
    func loopFieldsOutsideLoop() throws {
        #expect(try render("[{{@index}}]") == "[]")
    }
}
