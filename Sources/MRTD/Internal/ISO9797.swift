/// ISO/IEC 9797-1 padding method 2 and MAC algorithm 3 (the "retail MAC").
package enum ISO9797 {
    /// Appends `80` and then `00` bytes up to a multiple of `blockSize` (always adds at least one byte).
    package static func pad(_ data: [UInt8], blockSize: Int) -> [UInt8] {
        var out = data
        out.append(0x80)
        while out.count % blockSize != 0 { out.append(0x00) }
        return out
    }

    /// Removes padding method 2; `nil` when the data does not end in `80 00…` or the
    /// padding is longer than a block.
    package static func unpad(_ data: [UInt8], blockSize: Int) -> [UInt8]? {
        var index = data.count - 1
        while index >= 0, data[index] == 0x00 { index -= 1 }
        guard index >= 0, data[index] == 0x80, data.count - index <= blockSize else { return nil }
        return Array(data[..<index])
    }

    /// MAC algorithm 3 with DES and a 16-byte key Ka‖Kb over already padded `data`: CBC
    /// with Ka over every block, then decrypt with Kb and encrypt with Ka the last result.
    ///
    /// OpenSSL 3 keeps single DES in its legacy provider, so the CBC part runs as two-key
    /// triple DES with Ka‖Ka (E_Ka D_Ka E_Ka = E_Ka), and the last block as two-key triple
    /// DES with Ka‖Kb, which is exactly E_Ka(D_Kb(E_Ka(x))).
    package static func retailMAC(key: [UInt8], paddedData data: [UInt8]) -> Result<[UInt8], OpenSSLError> {
        guard key.count == 16, !data.isEmpty, data.count % 8 == 0 else {
            return .failure(OpenSSLError(function: "retailMAC", code: 0, reason: "needs a 16-byte key and whole 8-byte blocks"))
        }
        let ka = Array(key[0..<8])
        var chain = [UInt8](repeating: 0, count: 8)
        let head = Array(data.dropLast(8))
        if !head.isEmpty {
            switch LibCrypto.cipher(.desEDECBC, encrypt: true, key: ka + ka, iv: chain, data: head) {
            case .success(let encrypted): chain = Array(encrypted.suffix(8))
            case .failure(let error): return .failure(error)
            }
        }
        let last = Bytes.xor(chain, Array(data.suffix(8)))
        return LibCrypto.cipher(.desEDEECB, encrypt: true, key: key, iv: [], data: last)
    }
}
