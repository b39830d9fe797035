import HTMLRendering
import Testing

struct ReloadTests {
    /// Development mode picks up edited templates without a restart.
    @Test("with reloadOnChange a rewritten template is recompiled on the next render")
    func reloadsChangedFile() throws {
        // setup
        let directory = try TemplateDirectory(["page.html": "<p>one {{ v }}</p>"])
        defer { directory.remove() }
        let renderer = try directory.renderer(reloadOnChange: true)
        #expect(try renderer.render("page", ["v": "x"]) == "<p>one x</p>")
        // MUT
        try directory.write("page.html", "<p>second version {{ v }}</p>")
        // validate
        #expect(try renderer.render("page", ["v": "x"]) == "<p>second version x</p>")
    }

    /// Editing a partial is enough; the including page needs no touch.
    @Test("a partial changed on disk is picked up by the page that includes it")
    func reloadsPartial() throws {
        // setup
        let directory = try TemplateDirectory(["page.html": "[{{> part }}]", "part.html": "a"])
        defer { directory.remove() }
        let renderer = try directory.renderer(reloadOnChange: true)
        #expect(try renderer.render("page", [:]) == "[a]")
        // MUT
        try directory.write("part.html", "bbb")
        // validate
        #expect(try renderer.render("page", [:]) == "[bbb]")
    }

    /// A bad edit reports its error and recovers once fixed.
    @Test("a broken rewrite surfaces its compile error from render until it is fixed")
    func brokenRewrite() throws {
        // setup
        let directory = try TemplateDirectory(["page.html": "<p>ok</p>"])
        defer { directory.remove() }
        let renderer = try directory.renderer(reloadOnChange: true)
        // MUT
        try directory.write("page.html", "<p>\n<a onclick=\"{{ x }}\">")
        // validate
        let error = try #require(throws: TemplateError.self) { try renderer.render("page", [:]) }
        #expect(error.line == 2)
        #expect(throws: TemplateError.self) { try renderer.render("page", [:]) }
        try directory.write("page.html", "<p>fixed</p>")
        #expect(try renderer.render("page", [:]) == "<p>fixed</p>")
    }

    /// New and removed files are noticed through directory stamps.
    @Test("a new template file is found and a deleted one disappears")
    func addedAndDeletedFiles() throws {
        let directory = try TemplateDirectory(["page.html": "p"])
        defer { directory.remove() }
        let renderer = try directory.renderer(reloadOnChange: true)
        try directory.write("extra.html", "e")
        #expect(try renderer.render("extra", [:]) == "e")
        try directory.delete("extra.html")
        #expect(throws: TemplateError.self) { try renderer.render("extra", [:]) }
    }

    /// Production mode never touches the disk after start-up.
    @Test("without reloadOnChange the compiled templates stay as loaded")
    func noReloadByDefault() throws {
        // setup
        let directory = try TemplateDirectory(["page.html": "one"])
        defer { directory.remove() }
        let renderer = try directory.renderer()
        // MUT
        try directory.write("page.html", "two two")
        // validate
        #expect(try renderer.render("page", [:]) == "one")
    }
}
