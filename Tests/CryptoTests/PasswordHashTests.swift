import Crypto
import Testing

struct PasswordHashTests {
    @Test("a hash verifies the right password and not a wrong one")
    func hashAndVerify() throws {
        let encoded = try PasswordHash.hash("correct horse", parameters: .fastForTests)
        #expect(encoded.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        #expect(PasswordHash.verify("correct horse", against: encoded))
        #expect(!PasswordHash.verify("correct horse ", against: encoded))
        #expect(!PasswordHash.verify("", against: encoded))
        #expect(try PasswordHash.hash("correct horse", parameters: .fastForTests) != encoded)
    }

    @Test("the standard parameters hash with ln=17, r=8, p=1 (scrypt's 32 MiB memory limit is raised)")
    func standardParameters() throws {
        let encoded = try PasswordHash.hash("pw")
        #expect(encoded.hasPrefix("$scrypt$ln=17,r=8,p=1$"))
        #expect(PasswordHash.parameters(of: encoded) == PasswordHash.Parameters(n: 1 << 17, r: 8, p: 1))
        let parts = encoded.split(separator: "$")
        #expect(parts.count == 4 && parts[2].count == 22 && parts[3].count == 43)
        #expect(PasswordHash.verify("pw", against: encoded))
    }

    @Test("stored strings from Python's hashlib.scrypt verify")
    func knownAnswers() {
        // Computed once with Python 3.11:
        //   salt = bytes(range(16))
        //   hashlib.scrypt(b"correct horse battery staple", salt=salt, n=1024, r=8, p=1, dklen=32)
        //   salt2 = bytes.fromhex("a0a1a2a3a4a5a6a7a8a9aaabacadaeaf")
        //   hashlib.scrypt("pässwörd 🔑".encode(), salt=salt2, n=2048, r=4, p=2, dklen=64)
        // each written as "$scrypt$ln=…,r=…,p=…$" + base64 without "=" of salt and hash.
        let first = "$scrypt$ln=10,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$mp90zEQd5XGhjEv4WArVH4Z0XRSzkGWtJK2S/AXJlRU"
        let second =
            "$scrypt$ln=11,r=4,p=2$oKGio6SlpqeoqaqrrK2urw$gDET8GEogKwlSU8L6Dwv+ZLF1csYsH4xhm946rpT8ZLtU1gdrKua3vFBzmykGRiKCDs26NuBcQjDmaDplLxD7A"
        #expect(PasswordHash.verify("correct horse battery staple", against: first))
        #expect(!PasswordHash.verify("correct horse battery stapl", against: first))
        #expect(PasswordHash.verify("pässwörd 🔑", against: second))
        #expect(PasswordHash.parameters(of: second) == PasswordHash.Parameters(n: 2048, r: 4, p: 2))
        #expect(!PasswordHash.verify("passwörd 🔑", against: second))
    }

    @Test("malformed strings and absurd parameters are false, never a crash")
    func malformed() {
        let salt = "AAECAwQFBgcICQoLDA0ODw"
        let hash = "mp90zEQd5XGhjEv4WArVH4Z0XRSzkGWtJK2S/AXJlRU"
        let candidates = [
            "", "$", "$scrypt$", "scrypt$ln=10,r=8,p=1$\(salt)$\(hash)", "$bcrypt$ln=10,r=8,p=1$\(salt)$\(hash)",
            "$scrypt$ln=10,r=8$\(salt)$\(hash)", "$scrypt$r=8,ln=10,p=1$\(salt)$\(hash)",
            "$scrypt$ln=10,r=8,p=1$\(salt)", "$scrypt$ln=10,r=8,p=1$\(salt)$\(hash)$",
            "$scrypt$ln=10,r=8,p=1$\(salt)$", "$scrypt$ln=10,r=8,p=1$$\(hash)", "$scrypt$ln=10,r=8,p=1$\(salt)$!!!!",
            "$scrypt$ln=10,r=8,p=1$\(salt)=$\(hash)", "$scrypt$ln=0,r=8,p=1$\(salt)$\(hash)",
            "$scrypt$ln=21,r=8,p=1$\(salt)$\(hash)", "$scrypt$ln=63,r=8,p=1$\(salt)$\(hash)",
            "$scrypt$ln=99999999999999999999,r=8,p=1$\(salt)$\(hash)", "$scrypt$ln=-1,r=8,p=1$\(salt)$\(hash)",
            "$scrypt$ln=10,r=0,p=1$\(salt)$\(hash)", "$scrypt$ln=10,r=8,p=0$\(salt)$\(hash)",
            "$scrypt$ln=20,r=8,p=1$\(salt)$\(hash)", "$scrypt$ln=10,r=8,p=999$\(salt)$\(hash)",
            "$scrypt$ln=+10,r=8,p=1$\(salt)$\(hash)", "$scrypt$ln=10,r=8,p=1$AAAA$\(hash)",
            "$scrypt$ln=10,r=8,p=1$\(salt)$AAAA",
        ]
        for candidate in candidates {
            #expect(!PasswordHash.verify("correct horse battery staple", against: candidate), "\(candidate)")
            #expect(PasswordHash.parameters(of: candidate) == nil, "\(candidate)")
        }
    }

    @Test("hashing refuses parameters outside the accepted range")
    func hashRefusesBadParameters() {
        for parameters in [
            PasswordHash.Parameters(n: 1000, r: 8, p: 1), PasswordHash.Parameters(n: 1 << 21, r: 1, p: 1),
            PasswordHash.Parameters(n: 1024, r: 0, p: 1), PasswordHash.Parameters(n: 1024, r: 8, p: 0),
        ] {
            #expect(throws: CryptoError.self) { try PasswordHash.hash("pw", parameters: parameters) }
        }
    }
}
