import Foundation
import Geo
import Imaging
import Places

/// `grain-stories image process` and `grain-stories h3`: the upload pipeline and H3 as command-line tools.
public enum Tools {
    public struct ToolError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Processes IN (any format the pipeline reads) into OUT exactly as an upload would be, reading IN in place,
    /// and describes the result in one JSON line.
    public static func processImage(input: String, output: String, maxBytes: Int, placesCSV: String?) throws -> String {
        var options = PipelineOptions()
        options.maxBytes = maxBytes
        let processed = try ImagePipeline.process(fileAt: input, options: options)
        guard FileManager.default.createFile(atPath: output, contents: Data(processed.jpeg)) else {
            throw ToolError(description: "cannot write \(output)")
        }
        var cell: String?
        var place: String?
        if let gps = processed.metadata.gps {
            cell = H3.cell(latitude: gps.latitude, longitude: gps.longitude, resolution: 10)?.description
            if let placesCSV, FileManager.default.fileExists(atPath: placesCSV),
                let nearest = try PlaceIndex(csvPath: placesCSV).nearest(latitude: gps.latitude, longitude: gps.longitude)
            {
                place = PlaceMapping.label(from: nearest).locationName
            }
        }
        let line: [String: Any] = [
            "width": processed.width, "height": processed.height, "bytes": processed.jpeg.count,
            "quality": processed.quality, "orientation": processed.orientation, "format": processed.sourceFormat.rawValue,
            "h3": cell as Any? ?? NSNull(), "place": place as Any? ?? NSNull(),
        ]
        let json = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: json, as: UTF8.self)
    }

    /// One `lat,lng` line in, one cell (or an error line) out.
    public static func h3Line(_ line: String, resolution: Int) -> String {
        let parts = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lng = Double(parts[1]), abs(lat) <= 90, abs(lng) <= 180,
            let cell = H3.cell(latitude: lat, longitude: lng, resolution: resolution)
        else { return "error: expected \"lat,lng\" in degrees, got \"\(line.prefix(80))\"" }
        return cell.description
    }
}
