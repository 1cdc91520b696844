/// MJPEG streams: JPEG images one after another.
public enum MJPEG {
    /// Splits a stream at each start-of-image marker (FF D8) that follows an
    /// end-of-image marker (FF D9). Bytes between images are dropped.
    public static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        var images: [[UInt8]] = []
        var start: Int? = nil
        var i = 0
        while i + 1 < bytes.count {
            if bytes[i] == 0xFF {
                let marker = bytes[i + 1]
                if marker == 0xD8 && start == nil {
                    start = i
                } else if marker == 0xD9, let s = start {
                    images.append(Array(bytes[s...(i + 1)]))
                    start = nil
                } else if marker != 0x00 && marker != 0xFF && !(0xD0...0xD7).contains(marker), start != nil,
                    marker != 0xD8 && marker != 0xD9, i + 3 < bytes.count, marker >= 0xC0 && marker != 0xDA
                {
                    // A segment with a length: skip over its payload (it may contain FF D9).
                    let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
                    i += 2 + length
                    continue
                }
            }
            i += 1
        }
        return images
    }
}
