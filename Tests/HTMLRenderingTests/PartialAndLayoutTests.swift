import HTMLRendering
import Testing

struct PartialAndLayoutTests {
    /// Partials see the including scope, and escaping still applies inside them.
    @Test("a partial renders with the current scope, including loop fields")
    func partialUsesCurrentScope() throws {
        // setup
        let directory = try TemplateDirectory([
            "home.html": "<ul>{{#each people}}{{> partials/avatar }}{{/each}}</ul>",
            "partials/avatar.html": "<li data-i=\"{{@index}}\"><img src=\"{{ avatar }}\" alt=\"{{ name }}\"> {{ site }}</li>",
        ])
        defer { directory.remove() }
        let context: TemplateValue = [
            "site": "Grain",
            "people": [["name": "A<", "avatar": "/a.jpg"], ["name": "B", "avatar": "javascript:x"]],
        ]
        // MUT
        let output = try directory.renderer().render("home", context)
        // validate
        let first = "<li data-i=\"0\"><img src=\"/a.jpg\" alt=\"A&lt;\"> Grain</li>"
        let second = "<li data-i=\"1\"><img src=\"about:invalid#blocked\" alt=\"B\"> Grain</li>"
        #expect(output == "<ul>" + first + second + "</ul>")
    }

    /// Partials may be nested across directories.
    @Test("partials can include other partials")
    func nestedPartials() throws {
        let directory = try TemplateDirectory([
            "page.html": "[{{> a }}]",
            "a.html": "a{{> sub/b }}",
            "sub/b.html": "b{{ x }}",
        ])
        defer { directory.remove() }
        #expect(try directory.renderer().render("page", ["x": "<"]) == "[ab&lt;]")
    }

    /// Cycles are found at load time, not as a stack overflow during a request.
    @Test("an include cycle is refused at load time, naming the cycle, file and line")
    func includeCycle() throws {
        let error = try #require(
            try loadError([
                "a.html": "a{{> b }}",
                "b.html": "b\n{{> partials/c }}",
                "partials/c.html": "c\n\n{{> a }}",
            ]))
        #expect(error.message == "include cycle: a -> b -> partials/c -> a")
        #expect(error.file == "partials/c.html")
        #expect(error.line == 3)
    }

    /// The shortest cycle is caught too.
    @Test("a template including itself is a cycle")
    func selfInclude() throws {
        let error = try #require(try loadError(["a.html": "{{#if x}}{{> a }}{{/if}}"]))
        #expect(error.message == "include cycle: a -> a")
    }

    /// A typo in a partial name fails at load time.
    @Test("an unknown partial is refused at load time")
    func unknownPartial() throws {
        let error = try #require(try loadError(["page.html": "x\n{{> partials/missing }}"]))
        #expect(error.message.contains("partials/missing"))
        #expect(error.line == 2)
    }

    /// Partials are compiled for text context, so they may only be included there.
    @Test("a partial can only be included in text context")
    func partialOutsideText() throws {
        let error = try #require(try loadError(["page.html": "<p title=\"{{> p }}\">", "p.html": "x"]))
        #expect(error.message.contains("only be included in text"))
    }

    /// Layouts wrap pages and see the page context.
    @Test("a layout renders around the page with {{ content }} raw and the same context")
    func layout() throws {
        // setup
        let directory = try TemplateDirectory([
            "home.html": "<h1>{{ title }}</h1>",
            "layouts/main.html": "<title>{{ title }}</title><main>{{ content }}</main><p>{{ content.missing }}</p>",
        ])
        defer { directory.remove() }
        // MUT
        let output = try directory.renderer().render("home", ["title": "A & B"], layout: "layouts/main")
        // validate
        #expect(output == "<title>A &amp; B</title><main><h1>A &amp; B</h1></main><p></p>")
    }

    /// The page output, not a context key, is what `{{ content }}` shows.
    @Test("a context key named content cannot inject markup through the layout")
    func layoutContentOverridesContext() throws {
        let directory = try TemplateDirectory(["page.html": "<p>page</p>", "layout.html": "{{ content }}"])
        defer { directory.remove() }
        #expect(try directory.renderer().render("page", ["content": "<script>"], layout: "layout") == "<p>page</p>")
    }

    /// Unknown names are errors, not empty pages.
    @Test("rendering an unknown template or layout throws")
    func unknownTemplate() throws {
        let directory = try TemplateDirectory(["page.html": "x"])
        defer { directory.remove() }
        let renderer = try directory.renderer()
        #expect(throws: TemplateError.self) { try renderer.render("nope", [:]) }
        #expect(throws: TemplateError.self) { try renderer.render("page", [:], layout: "nope") }
        #expect(renderer.templateNames == ["page"])
    }

    /// A wrong template path fails at start-up.
    @Test("a missing template directory is a load error")
    func missingDirectory() {
        #expect(throws: TemplateError.self) { try TemplateRenderer(directory: "/nonexistent/templates-\(UInt64.random(in: 0...UInt64.max))") }
    }
}
