import Testing

@testable import Video

@Suite struct ISO6709Tests {
    /// Decimal degrees with an altitude, as iPhones write them, give latitude and longitude.
    @Test func readsDecimalDegreesWithAltitude() throws {
        let point = try #require(ISO6709.parse("+48.8584+002.2945+035.000/"))
        #expect(abs(point.latitude - 48.8584) < 1e-9)
        #expect(abs(point.longitude - 2.2945) < 1e-9)
    }

    /// Southern and western points are negative, and the altitude is optional.
    @Test func readsSouthWestWithoutAltitude() throws {
        let point = try #require(ISO6709.parse("-33.8688-070.6693/"))
        #expect(abs(point.latitude + 33.8688) < 1e-9)
        #expect(abs(point.longitude + 70.6693) < 1e-9)
    }

    /// Degrees and minutes, and degrees, minutes and seconds, are told apart by their digits.
    @Test func readsMinutesAndSeconds() throws {
        let minutes = try #require(ISO6709.parse("+4851.504+00217.770/"))
        #expect(abs(minutes.latitude - (48 + 51.504 / 60)) < 1e-9)
        #expect(abs(minutes.longitude - (2 + 17.77 / 60)) < 1e-9)
        let seconds = try #require(ISO6709.parse("+485130.2-0021746/"))
        #expect(abs(seconds.latitude - (48 + 51 / 60.0 + 30.2 / 3600)) < 1e-9)
        #expect(abs(seconds.longitude + (2 + 17 / 60.0 + 46 / 3600)) < 1e-9)
    }

    /// A coordinate reference system after the point does not stop it being read.
    @Test func ignoresAReferenceSystem() throws {
        let point = try #require(ISO6709.parse("+40.7128-074.0060CRSWGS_84/"))
        #expect(abs(point.longitude + 74.006) < 1e-9)
    }

    /// Out-of-range values, missing signs, wrong digit counts and junk are refused.
    @Test(arguments: [
        "+91.0000+002.0000/", "+48.0000+181.0000/", "48.8584+002.2945/", "+48.8584/", "", "/", "+4.8+002.2945/", "+48.85.84+002.2945/",
        "+4875.00+00217.00/", "+48.8584+002.2945junk/", "+ab.cdef+002.2945/", "+48.+002.2945/",
    ])
    func refusesWhatIsNotAPoint(_ text: String) {
        #expect(ISO6709.parse(text) == nil)
    }
}
