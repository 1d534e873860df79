import Foundation
import Testing

/// A compressed body and the bytes it decodes to.
struct ContentCodingVector: Sendable, CustomTestStringConvertible {
    let name: String
    let contentEncoding: String
    let encoded: Data
    let plain: Data

    init(_ name: String, contentEncoding: String, plain: Data, base64: String) {
        self.name = name
        self.contentEncoding = contentEncoding
        self.plain = plain
        encoded = Data(base64Encoded: base64)!
    }

    var testDescription: String { name }
}

extension ContentCodingVector {
    /// Bodies compressed by CPython 3's `zlib` and `gzip` modules (so by zlib itself), each with the Python
    /// expression that made it; `hello`, `runs`, `allBytes`, `lines`, `geometric` and `coinFlips` are
    /// ``PlainTexts``, computed the same way in Python.
    static let all: [ContentCodingVector] = [
        // gzip.compress(hello, mtime=0): one fixed-Huffman block
        ContentCodingVector(
            "gzipFixed", contentEncoding: "gzip", plain: PlainTexts.hello,
            base64: "H4sIAAAAAAACA/NIzcnJ11Eozy/KSVHkAgAYp1V7DgAAAA=="),
        // gzip.compress(lines(200), mtime=0): one dynamic-Huffman block
        ContentCodingVector(
            "gzipDynamic", contentEncoding: "gzip", plain: PlainTexts.lines(200),
            base64:
                "H4sIAAAAAAACA53ay3ETQQBF0T1RTAjz+t9kw0eAQVhgY8COnoIMOGvVW+mUNHO7r3f3l+N8ffz4dDm+P929+3K8fbj9uj8+3H4fn5++fns8bj8vD/8+vr55eT7e3z6+uv7dBDYFNhU2DTYdNgM2EzYLNlu+U4IgEiIUIhYiGCIaIhwiHiIgIiKKiCj02yAiiogoIqKIiCIiiogoIqKIiCoiqoio9HchIqqIqCKiiogqIqqIqCKiiYgmIpqIaPQEISKaiGgioomIJiKaiOgioouILiK6iOj0UCkiuojoIqKLiC4ihogYImKIiCEihogY9J4hIoaIGCJiiIgpIqaImCJiiogpIqaImPTqKSKmiJgiYomIJSKWiFgiYomIJSKWiFhUI0TEEhFbRGwRsUXEFhFbRGwRsUXEFhGbApUVKkpUJzWqkyLVSZXqpEx1Uqc6KVSdVKpOSlUn2cB8STYsYFrBtIRpDdMiplVMy5jUMUMhM8XaNtmglhmKmaGaGcqZoZ4ZCpqhohlKmqGmmWoHH2SDsmaoa4bCZqhshtJmqG2G4maobobyZpqdipENKpyhxBlqnKHIGaqcocwZ6pyh0Bkqnel2ZEo2KHaGamcod4Z6Zyh4hopnKHmGmmcoembYeTrZoO4ZCp+h8hlKn6H2GYqfofoZyp+h/plply3IBiXQUAMNRdBQBQ1l0FAHDYXQUAkNpdAsu4lDNqiGhnJoqIeGgmioiIaSaKiJhqJoqIpm2zWt/7TxB/MtOfLCKQAA"
        ),
        // gzip.compress(lines(20), compresslevel=0, mtime=0): a stored block
        ContentCodingVector(
            "gzipStored", contentEncoding: "gzip", plain: PlainTexts.lines(20),
            base64:
                "H4sIAAAAAAAEAwEaBOX7bGluZSAwOiB0aGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nCmxpbmUgMTogdGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZwpsaW5lIDI6IHRoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2cKbGluZSAzOiB0aGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nCmxpbmUgNDogdGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZwpsaW5lIDU6IHRoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2cKbGluZSA2OiB0aGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nCmxpbmUgNzogdGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZwpsaW5lIDg6IHRoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2cKbGluZSA5OiB0aGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nCmxpbmUgMTA6IHRoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2cKbGluZSAxMTogdGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZwpsaW5lIDEyOiB0aGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nCmxpbmUgMTM6IHRoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2cKbGluZSAxNDogdGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZwpsaW5lIDE1OiB0aGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nCmxpbmUgMTY6IHRoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2cKbGluZSAxNzogdGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZwpsaW5lIDE4OiB0aGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nCmxpbmUgMTk6IHRoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2cKlKcFERoEAAA="
        ),
        // gzip.compress(b"Hello, ", mtime=0) + gzip.compress(b"world!\n", mtime=0): two members
        ContentCodingVector(
            "gzipMultiMember", contentEncoding: "gzip", plain: PlainTexts.hello,
            base64: "H4sIAAAAAAACA/NIzcnJ11EAAAVvV94HAAAAH4sIAAAAAAACAyvPL8pJUeQCAEHod5wHAAAA"),
        // FEXTRA (one subfield), FNAME "hello.txt", FCOMMENT "a comment" and FHCRC before raw(hello)
        ContentCodingVector(
            "gzipAllHeaderFields", contentEncoding: "gzip", plain: PlainTexts.hello,
            base64: "H4sIHgAAAAACAwgAQUIEAHRlc3RoZWxsby50eHQAYSBjb21tZW50ANfa80jNycnXUSjPL8pJUeQCABinVXsOAAAA"),
        // gzip.compress(b"", mtime=0)
        ContentCodingVector(
            "gzipEmpty", contentEncoding: "gzip", plain: Data(),
            base64: "H4sIAAAAAAACAwMAAAAAAAAAAAA="),
        // zlib.compress(lines(200), 9)
        ContentCodingVector(
            "zlibDynamic", contentEncoding: "deflate", plain: PlainTexts.lines(200),
            base64:
                "eNqd2stxE0EARdE9UUwI8/rfZMNHgEFYYGPAjp6CDDhr1VvplDRzu69395fjfH38+HQ5vj/dvftyvH24/bo/Ptx+H5+fvn57PG4/Lw//Pr6+eXk+3t8+vrr+3QQ2BTYVNg02HTYDNhM2CzZbvlOCIBIiFCIWIhgiGiIcIh4iICIiiogo9NsgIoqIKCKiiIgiIoqIKCKiiIgqIqqIqPR3ISKqiKgiooqIKiKqiKgioomIJiKaiGj0BCEimohoIqKJiCYimojoIqKLiC4iuojo9FApIrqI6CKii4guIoaIGCJiiIghIoaIGPSeISKGiBgiYoiIKSKmiJgiYoqIKSKmiJj06ikipoiYImKJiCUilohYImKJiCUilohYVCNExBIRW0RsEbFFxBYRW0RsEbFFxBYRmwKVFSpKVCc1qpMi1UmV6qRMdVKnOilUnVSqTkpVJ9nAfEk2LGBawbSEaQ3TIqZVTMuY1DFDITPF2jbZoJYZipmhmhnKmaGeGQqaoaIZSpqhpplqBx9kg7JmqGuGwmaobIbSZqhthuJmqG6G8maanYqRDSqcocQZapyhyBmqnKHMGeqcodAZKp3pdmRKNih2hmpnKHeGemcoeIaKZyh5hppnKHpm2Hk62aDuGQqfofIZSp+h9hmKn6H6Gcqfof6ZaZctyAYl0FADDUXQUAUNZdBQBw2F0FAJDaXQLLuJQzaohoZyaKiHhoJoqIiGkmioiYaiaKiKZts1rf+08Qd5FpEH"
        ),
        // zlib.compress(lines(20), 0)
        ContentCodingVector(
            "zlibStored", contentEncoding: "deflate", plain: PlainTexts.lines(20),
            base64:
                "eAEBGgTl+2xpbmUgMDogdGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZwpsaW5lIDE6IHRoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2cKbGluZSAyOiB0aGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nCmxpbmUgMzogdGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZwpsaW5lIDQ6IHRoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2cKbGluZSA1OiB0aGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nCmxpbmUgNjogdGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZwpsaW5lIDc6IHRoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2cKbGluZSA4OiB0aGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nCmxpbmUgOTogdGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZwpsaW5lIDEwOiB0aGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nCmxpbmUgMTE6IHRoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2cKbGluZSAxMjogdGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZwpsaW5lIDEzOiB0aGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nCmxpbmUgMTQ6IHRoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2cKbGluZSAxNTogdGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZwpsaW5lIDE2OiB0aGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nCmxpbmUgMTc6IHRoZSBxdWljayBicm93biBmb3gganVtcHMgb3ZlciB0aGUgbGF6eSBkb2cKbGluZSAxODogdGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZwpsaW5lIDE5OiB0aGUgcXVpY2sgYnJvd24gZm94IGp1bXBzIG92ZXIgdGhlIGxhenkgZG9nCq8+cPg="
        ),
        // zlib.compress(b"", 9)
        ContentCodingVector(
            "zlibEmpty", contentEncoding: "deflate", plain: Data(),
            base64: "eNoDAAAAAAE="),
        // raw(lines(200)), raw being zlib.compressobj(9, zlib.DEFLATED, -15) without the zlib wrapper
        ContentCodingVector(
            "rawDynamic", contentEncoding: "deflate", plain: PlainTexts.lines(200),
            base64:
                "ndrLcRNBAEXRPVFMCPP632TDR4BBWGBjwI6eggw4a9Vb6ZQ0c7uvd/eX43x9/Ph0Ob4/3b37crx9uP26Pz7cfh+fn75+ezxuPy8P/z6+vnl5Pt7fPr66/t0ENgU2FTYNNh02AzYTNgs2W75TgiASIhQiFiIYIhoiHCIeIiAiIoqIKPTbICKKiCgiooiIIiKKiCgiooiIKiKqiKj0dyEiqoioIqKKiCoiqoioIqKJiCYimoho9AQhIpqIaCKiiYgmIpqI6CKii4guIrqI6PRQKSK6iOgioouILiKGiBgiYoiIISKGiBj0niEihogYImKIiCkipoiYImKKiCkipoiY9OopIqaImCJiiYglIpaIWCJiiYglIpaIWFQjRMQSEVtEbBGxRcQWEVtEbBGxRcQWEZsClRUqSlQnNaqTItVJleqkTHVSpzopVJ1Uqk5KVSfZwHxJNixgWsG0hGkN0yKmVUzLmNQxQyEzxdo22aCWGYqZoZoZypmhnhkKmqGiGUqaoaaZagcfZIOyZqhrhsJmqGyG0maobYbiZqhuhvJmmp2KkQ0qnKHEGWqcocgZqpyhzBnqnKHQGSqd6XZkSjYodoZqZyh3hnpnKHiGimcoeYaaZyh6Zth5Otmg7hkKn6HyGUqfofYZip+h+hnKn6H+mWmXLcgGJdBQAw1F0FAFDWXQUAcNhdBQCQ2l0Cy7iUM2qIaGcmioh4aCaKiIhpJoqImGomioimbbNa3/tPEH"
        ),
        // raw(bytes(range(256)) * 2, strategy=zlib.Z_FIXED): fixed codes of 8 and 9 bits
        ContentCodingVector(
            "rawFixedAllBytes", contentEncoding: "deflate", plain: PlainTexts.allBytes,
            base64:
                "Y2BkYmZhZWPn4OTi5uHl4xcQFBIWERUTl5CUkpaRlZNXUFRSVlFVU9fQ1NLW0dXTNzA0MjYxNTO3sLSytrG1s3dwdHJ2cXVz9/D08vbx9fMPCAwKDgkNC4+IjIqOiY2LT0hMSk5JTUvPyMzKzsnNyy8oLCouKS0rr6isqq6pratvaGxqbmlta+/o7Oru6e3rnzBx0uQpU6dNnzFz1uw5c+fNX7Bw0eIlS5ctX7Fy1eo1a9et37Bx0+YtW7dt37Fz1+49e/ftP3Dw0OEjR48dP3Hy1OkzZ8+dv3Dx0uUrV69dv3Hz1u07d+/df/Dw0eMnT589f/Hy1es3b9+9//Dx0+cvX799//Hz1+8/f//9Zxjh/gcA"
        ),
        // raw(lines(50), strategy=zlib.Z_FIXED): fixed codes with lengths and distances
        ContentCodingVector(
            "rawFixedMatches", contentEncoding: "deflate", plain: PlainTexts.lines(50),
            base64:
                "y8nMS1UwsFIoyUhVKCzNTM5WSCrKL89TSMuvUMgqzS0oVsgvSy0CS+ckVlUqpOSnc+WA9BiSoceIDD3GZOgxIUOPKRl6zMjQY06GHgsy9FiSE6dkJQRyUoIhOUnBkJy0YEhOYjAkJzUYkpMcDMlJD4bkJAhDclKEETkpwoissoGcFGFEToowIidFGJGTIozISRFG5KQII3JShBE5KcKYnBRhTE6KMCaruiAnRRiTkyKMyUkRxuSkCGNyUoQxOSnCmJwUYUJOijAhJ0WYkJMiTMhqQZCTIkzISREm5KQIE3JShAk5KcKExBQBAA=="
        ),
        // raw(geometric(8000), strategy=zlib.Z_HUFFMAN_ONLY): literal codes longer than 10 bits
        ContentCodingVector(
            "rawLongCodes", contentEncoding: "deflate", plain: PlainTexts.geometric(8000),
            base64:
                "BcFBgiRJcgSxt0LUPLJ6lv8/E9CXAl1/Srk9/+mgPUKgCTAP93beTDq0Xu/oDSw5mtFIfbbKCGH6jFy5DTvr8QWCzw9x0/RveiISf0fU8BvjKiee9CLj3dr5cTMt0g11oq9SyAATEuRVFAY+bS/DS70kIvxcBuBljS4poG30WHrPSX18TLDHlt2rXdDPkTkg+chJ9MpVLmOl7ABzAj6GVjOG8lM3ysNKlK4VBWfAnTTnFepshbHmGyVZ5oS9ONf9LIXIf8A7uxlAEtZnNlqK1YfXrnqpbZMpeDgISoYLTOcaINTf5IHir0m+lD20HUzdjgxu4sTHIkdWbld3AutBO1IXFQT4F9jJwll82TMemIPN5wAe3JKPJV31Hxih15jlMqDObMTXHF3ZryXGfnmRsZVTlkBGPw/B0/Q4AJLR6n7R9m5XVv5RwD9PuF6bU3DHzUKRQjJE6jP+xlv8ct6U2dSDlqfzjzxoBv9lzuZ2fZVi3jYK/iNSKxYd+bqqpI6BCcSmQBxa99dJYgKFzCQufdoISbxXEjwV1JBS+EEw6gaNt1B8gNHEmCa/P73tke5ZX4mE88mZvZ/kG+xSiD0CPXhL1ryb9a1tNuYNuITExC0wi689mEjeROrlgAZ/v8T9Ds7HEZn6olsujPtt89o/CjSemzJBxuhTnwLc/N33co85biNcN7C07ve5D53rNSfWOcftm8Er+QhMPakQjzTVquelhAEXkKiHCGx2CMjEA0mLFGMs2VJboZIqPALEVXBYjYxBjYX9zAHpL1OSfLkqMvLAAX3tsol4Fd7/mj76Zf2RXFsaDuRUO69z+LOgOKP5WhAcV3oMcVQP3nws1Rm9cdd5H5nRhAX7MAe8RqXdnImE1rpRYFK6PlLDx1YcrP378yoqnl3myHpICr8qe/Hnt/+IwCubVMjVdomWJKR0sLmNkibOpFizljOtIxlcj/eQ8ru3pRhhrnpsxojWC1q6yCzy9l6ptv38D1ywvlOwDEqqzu+MxwtRmOLia5PCj3t4iCguvH20kL5kZAhhxxiyn/arXsoH7fudtP4d2azxH+h/rDLiJx9mKL9Pfb55xPrI44OKw9Ht1W/OqUStzf/gnSzh7BN4t3RyOG1iS2/kpU+p/qCQ584WePCmWQ8iHiSRFAPKQXGreGYnw4ie79mIqWfZkMddCtnZvw5oLxzNBabFOGBPpRNHyGvmOjf6L61nd/sre1La5CWqmJPd1ybn7TWVJEb/VwQrWJWKV70HTZ/7NCWEe5wanzTw+sKAcS6uFmYkGx1NzA9eewe+dvJhpYmyY9cejRbO3EFUgC754W0R5qI03BFAuEW8N1Nj0RNtKwlyV4DzbinIdCF/OCfr0PcajUpH6XZn+PmSPs47/4InfL6xQ7B5OwgV79pdY9PX7/F9+VrvXpJ6A9wxXyLFYUaxEFZYEPN0b8EXWC0JSqaGM68u+t/8mqFSNVkDcmrpfzWBelMvYd7emqHlVQeI5jTezhW/v+TLpf5TejFI2X1BYOSvnsTHUavDUdTTP0uzX0lkYyGhNGh1+w5M8Mcgs4NUh0bhB7WF2hFOrbm22ow6Aj1cL1NrBl7sleL/5Et9QzYd9kNkfyaSwD/877LCJah8fDYRlv4lTvi6rtkHyq9lbnDR77MJzNU7OeDt9OKqxCB3gildKa8nbbVYhHDCnR+O6ybAPVh6lTzFWFwi2rm2f09siG8PrE/HmWXvp4obsRfVaPNKxQDkSZH4gdUyes+P2rS9vbv7QzcMQeY6fQz0H2HfaezVkmYBuexF6O066vPFRZfdkZw0b1vD0XQwcxtZI+uW137siXXXXDib39WEIBCF3IqIDOVfeSsD34SCRLd4JuSYhyXfQ9dAld6bSVI8GRMoGqwX6KS4/sXitGSW9F6IUmHr1zRZZ471i3H3nECwiA8pSG5FWcF/uJWahPN/nP7gYVrSoc+cB/vQnlbb1ciFpjBFt5o6hs2a/yqsrW9EpKt0mkYpwSPPNwalOLe+qoT3akwJYk1IPxlxgH2y2JbZkVE7RJS4KZZfsmw7gfTBOiGhtpcQszhjxpk+P9RhBMpkp26xOHIuo7geVTxg8Rya+/C0YpYVInG3UxQNg1dGkVjN3Il5FjY49KCnQ0oCtKdjf3hBWDHUuXlKhav2YHqW9USFCX3XqrO9UUpQg4dKrNDoyldghDzgGfmfXriN+Jemi7gxBBGA64W3S5QBvg7N5mm5l4CdoQ1STDkJitP1ZTAT+beHDPsQgmL6TryUKcTqz2dz2UasKyy0sffs0iIXypN/ylfvhbJoZ55HJdO1iYrkAKsvAjE1/Ii5NvBA5Jtv1scyxevkW05HMzAXRta0Qyn3EpepJOHpsG4572WOa06KkeEfEvelyDWn1NwOP3pSm4Z8mIIB30dH92xstQlMoPTEwiv8yDJE6Y+0KngEQiSfmMUVUQHTDaIzzayaXO/h3L85nmqr7lbO8hxyeA7QS9aNPkwANB62guWGzE+497i8133oVhMxDhrWlgpiPD/WMxreU+YjCJ3vtuxs0W81TMMkTfK2jJweV7g/hR5t5g2umv2JMOG7sbEELRzNrd6U2KP1P9FE/wRBWpjVpO2h+V5KkVYfu5qu+KgBQHSf3NNBBQdhCqIBjALSkcTQfun+XNcK2tZONXqY+d0ljhjbyM5ycx9AcvnjAktGxW+Pz2IuJxNBrqwsFslRVM3kxhBx81lsb4nrzfzrIMCaBv8P"
        ),
        // raw(coinFlips(25000) * 2): distances of the last distance code (24577...32768)
        ContentCodingVector(
            "rawFarBack", contentEncoding: "deflate", plain: PlainTexts.coinFlips(25000) + PlainTexts.coinFlips(25000),
            base64:
                "7Z0LkuU2DgTPWnX/Q2zseJ6ITNB7gA06HG339Bu1RJH4VBWAJO2ff//8z3+//Pn+ny+/P8qff/r3o/989u9/cz7R/v40fz/3Xer80fxsz2XT3z18//nnuj1fv8uf2/h++/jp30ueRzhfzo//+abjh/ke7Dz7fJrfUjTfE43n/374fXce4rvl34UzPtDfUvIa414y1rDho8+v4z1+v+db8PF44yp/V61zxfJb+Pl6qtd/lvBbz8xnHa/721ZYQbzG3686l/jdT89Wm8vfudhYCH56fE17lmhsle89fved8QQdVznPxucaf+Pb4d+S78PRea25qX+339+O/i2sfud3F/1eUzvv6Ps+XJLzDvCU3/7/fun3dr+3MFf5/Em/5+rZhOOIjNULbu480rkZvP2xZGdFzl4et6cLz+M5t+j3LMcefMe+43jIio1TOu1gzt8eS9OzHYYx7XiAYRa+NedBHBfteKsNfkKTPK1j5k+nMcuwanizw9zmbN1v/Yotkvm/48Md2y3zlH82MHz8aU5stPhahx0fxwne6pi/YzGGNZtbNWMVLqtzPNPYeePMaRN922S6ypvJmucyw+pN6z3d0DEGw1IVhnNu9vmLhsdu5hW/o19Z4+CEn0UP/OK3Z+fBnJ7pnMzvXJ1TewwaDQNuaJitYnGnjTsGY+5pbIJxt3O3wXefh8qwJTgbtJTnEE9ffr6UDj8nvljxzTR5WOfMx8v8m502P3AP31LKDo2jPG3BORAd9wsvGXrGFk5ibBhs7mHj6hvtiDuGZUyG8eUCzVsZLmb+mGFG5rsYFptvIYX3ha0onFDhnrKjjRkah6Z7euUZeYz92wTmZtxoZuR3ohL64LO0WKhcAtnjxfjiC6sw7cXwCx1v5xz/dO7gGbzBNXzryARj2p155GQ/EeTMMKltIsc+IutpyXqijM+cj78+rM8M/Y7JpFOatunc+3zPjCZpG+vTkGGycd3SKR37UTpHROZz+2Mf8N0H6d1MWMbBGQHaXK8i0JrBMx0K9lZhHuZpUp5xYjSs/ziMSGjmyegKoeh/yocbkfXIDGVXEGVWJq0rRcVCz8Xs5VxkBNy4+Pyjae469miLULMrn1JaDVc/bxM2jbEOF754gOH6OvMD3LNMabjthifFtcKcfdqUhtHB2R0zAZsnMNt3Bk4cAetY6xmeHh/L1BepyTQhpd8eQRUNInKCucH5BuEQVjiHG808O2N9+W2KLHqasc7sOztJGBkqvMPcqaki7onazMhxvo/zqWN+O7NaLDdgJV162qtzmzNpGG8KfiSw6vhOUQjzUQIiYXwVLSdCJwArmcnkTKm73G1naoRgGSGBcSrYKBijXCMhZaxjfUcEokhTIJ2TQQWVI9iQv221/QckFIQgiMmx4ZDOZIIW4xrZeCOAJWcjLUK+cM/ksvh4Pu7Wmf0ADhHGOo86XVqYKOOHIwEJMVAAJMMha7uc90yoEXY6zqmTDUoB8WB6hhR53tst8keGgTWOt0OFbsKW0xIAwJIRmpFxeA7xpsb5q46vDBAOzvwmEwutjyhQsCDYGWeXxhhZQYAbENLgy0TufOz0fJczn0A0CS+0Ic9JHMDLzMy9wN4ITWCnZ8G8waPShkVgoxBA4juZYfSEQROl3PPwD4AMAegKtCtDvvxJb8m4AHoBXYziEc80i1sZJgnB1TjqpWcBggc0izaiAFLC7JAvI7jKiJPjqHdDJlgEJosTIMxEHM4ajHC8k2sATjahIaR0E96usOAC6mMOHCHMVV4AMym4KoV/gBdcj+IIDmajDAkCFKi0hw1zTnwusmXDvDCbB/h6OSxOooFtFW8ueIcw7TFAm5DGqmFDhgQz2w6O/iSnAJoR4a/dA6kcOCIYP6xr8MbHQZ44l89YwVQsvH4etvlIvVGXNG0G+/BLh5cYjCqgn1REmuiGmfMR/FfevuPFkXLOcGPxktOu0c+FaJgC8+k0aIdBZC8MU2l5mDPDypF/I5OWFUBlp4hhGgC0JAQsAryjWajDdndgN5WkTj9v1mgAiQP0ZNKTG4I9OYoIfpmZE8AA5tyLhw6p2akFGFsrCzwbUUeV4CZmWRl9wylteH/BCngZ0l3UQMmEx0TsZCb4icOLCFFtFhc544QADHPeDVisoFuK5Y5jSuwBxuXXSHC+N5jlKhWMlRXb+s2gFQac4A+zvbn7wpi44jnxGZiMyjzMV0SyccAGXSzefM9jPQESZ8T4oAmnryKzUwtXsMFLo9vIhdNH3bA0seRh9oWY/RIsSdQhiJvyEolRqMSZ9EfIDXIxSBKIXDVxvndBJhxYUtyIiHcsosynTLkJ5ZF9Jk4RPx+QXVIbcFcDKgI6BraHLAcVQGX6DulE4U6kIkIyix0/cTICPaKrBKeLTwb4JlB0xvjYgTFiGOl6shUJCA1AirekOCUWIOw9HQBwZJnzJbogJi6FWy5RRiALi9FtQBB06lESD0qoSBZ9G8I7kJrRLEpvBb8AzZgVCDiBi/AA1BwqmgzilrpHCLHm32YWJa6dgTUICd99GXXV0raFBl7Q8SJIitSJVNQ09a4NGU5jWRByIu+KkHVTa8iQa4CsN741DgN2BGjFE1lIQ2KQ9GRvMvKwsdObfH3JjgrbJy9UC6VSpBS1oRYui40arsxSG9DkBZTniNPLi5O5nDCvnkbp7WJm8Bq2AqAIZaINWaRhdIxWYglstK6MSEKotw21NbGiAxajktqGECeQZ/psaIxATER4t+jHSXpQ6jNVK7b5UtMsqmVz0MuHL9FzKAMbxoRSx3kNIKHknEKROYL1LuFNmWIzpJlgRyV9ACOHMGFDpBJVUBZZrlSJ0TN8EO8GGpdaqBmntNZSR+905Z54L6kFxaZIw9vjgZy4vhaKbyxgekjihE4K/Au2LwIcMSEl6N71pIIFa35kGyrhdYARCt7eWCiFOwrMrbE1E2LzZEnhzK9wzjZGR3vI3FsPQc/E9AUk2XrkRon4TPfJUVZ5Ds9mKFMsZUHiTcaOEsFyIVmY3RMTmlBcpcpuHR+Ekjwa0GwlHhQ6ZNxnbGq5BKWh7UXyAf9KkVZUBdIscTUgNYVHCNjJNFKsKU1QhMFHvjqK6GYYI9LFyGRdgHDRicZIg35J7zI20U50oCKZXTBTlT7AMeUiF2xofxTGsUAEjNoMjCjuhUZX6Bst2uRAsIcl1iB4mq1vJPTRxU4PD+a3jsSeoSIQZEWXXQq13MkGGvMJXoVYMkjvKRM1vJrekt7qgKq0LCbRoNNvlvIgTuYrEiJh7USFKzEzYJBBThlJLMBTkI8Ux1d1RamAM0oJjRU2l5o1JB0peYfqU5FIVQoI8oiA6VGF4NoFRD9VgUSsSiM+Ly5EQjscnK3oYDDK2iEIYbt5Qm7ZS90Ka+JUVpVVfyY0lIh7DSvjgRePZl25qyZBAeElMCncp7RVzSfhFr3eZpUbQKgmWgUlJ5Lfqk7OTqj22HzxZD0K+pmB2FYQAhJDUifRtUxYSqW7DykzRYYOrHGsgZuKLKCaodLaJ1IolkLQAs8CvpfoCFPmAaPGpE6urGJjqjh47JSSbuiukBSDRsUdUSBKAMG5m2xMJRA0TnDRsgAoESWlEhCEMxGiURzR7LIcwEzV4qdWEi4wNUycpPyb6QoZp/wvDUPMiEc3wGIwxQRhyZysHZQJU2sQLnDkEiG4gV9RDqiSZRSKQmVWGkeiP1LBrh8yTZiF1F0nq9laahZishSorMgXRrCgqE4uhsiWsnLJXlEK4jAAsaerMUB6VAzslGmyFr7A5Vy3SxRL+hSSzJerS02D0sZm4cNlYtBLfW3biydPb5UMFyZyAXBknHPBchZ1EtfkWXlNWCuUyDk7NKs/cSpiSRSmuenErPXxi+fJow1iNZcZ9XQJicVTsyrAYi7drEp1VX250UCsrNzRv9KfpeYWCZegxBuHgf4NoeQNp5yBJXhehfrZwio4taL6KCSzEP8J1CKULl0wjOkFOlHhqwVhqJFfLQGWEB35b2TVyLRoXdQgoVKwI/zfkQgzcMRZ4ramC1UYZKK67gviApNe1emxxH5mQNlmoFFOsPoCVH0ToGFmQWXsBEBlTyPglhOW9gGfwR5ixDI3HBSkiwwkNqCQT1VW2W8ICslQQLVbRxAugIFJRcfkrrQRoG7g+VI9FcvxwsNH3UwczrNGU0IQRrLAGEj9qaGGxUari0dM6zjlQ82IFxV9AkrlNypzq2qf3JoXUevHWpx5m/ISAqrcYIESSoMvCEaMFEXor8LfdtUApsKbEjYXCjkPdq5xrR+LCFi63FpYLD+m6hOwkBC8aXVaOiNWxK/mIqqXJly8cwEVNF1oRPivSAqhsgCWzliT1lWZnb2ZKSchgRSGL1OHqzqeC03k3+ECLai0LFXDjkt7UzKu9QiJ6KoaSYGL8gEqc5QqXhgX0dW2rgUeXiWsq4nHihmRJEkjLRhB9g/ImeRdUkuBUE23vkS1QBTgwzLxhnb1zGrCwyZeLHfaxxH1ctI0uMIGu8nF7hIAanXNcRCslAqxqiNH5XX8ARLXzLAd10JWk2zYj2RAFGOzVoGF2GBveKMopeqtj199qsWm2AWjMBacmn53qW5TWhLXEoGv4xPucoGLoA49uapIYxEM0ugSuSgrWghM1xK2XORUJEfUuojF31VbO5N9XdIDqEkW8qUWUVpeF7jrWf12bAr3a2WdjKJJNmXZbQvkTdltqkYeWG+9cKTEytaumqO9TVRJgL5x8W6EoBWgim2ejmncx4q0iJq2rN58kPvwXsNclfcZ8VKkLerkUlZSMOOFvbCMZSAAasaHde7u8MeYfynEDeGRMb/UcBebc2nW2O/J5O1iuxZxq0YMoEeTC/Z8zeMX1a56VG0vnZKqmn8Xn4krLLulVm0NXBhDLQvEW2yEhGyMHd+i1iiA3YtGLKpn47FFKAl4qYxV2o3ZEPbp6mygB2AD1UmJog/l7m1V9RtCyRn0dQJNjAO5Tys4LgFlrhip6lbUgE/BO8pA/gXTFaDaSzltbh9U9UmWkkudoBTpyZZc6qBJDWzNsJrcWKyBrrOuMuq1KEbyuYhioHDPnUlsnFmat9gxt+x1FzkXrEAeFvU3cZ2G716sf7uqxnazJdn1azqL1h+qpL73pVgcGwudGWfHmoc6yYQWhmew1gxQYxSJamD9GIiWQZ7ahEqvraigudXj0NekLnWvWherTwjw/tXDopaQgcqzURZRQSF2VglYiKRVjVq2YL/r5VCIZuWAmeeteVZxrcvjKLVn/Y5bC6yujq5b23GxTaS11+ozCiO/OWHV0laB75IistXHTJG1+VbHFUUWkbZ6Nf+Da2WTiWvTjd2hpuzkwP4WK7aVN3TTQ3HLBuXXWqAvnpQ0uzexWV/10MkSk7tmY1WcssYcAurd+IjIvUHIW0VyFSCqUGN1KmGxsPpDs2/QohEXd7w8nJMrGSf2HEpXC9Zr6Z+FEauLc9dmqkoqV++bXuITRFur/kXqvMQCvwXk7L437BZUlgm5z+Ob0/DmNLw5DW9Ow5vT8OY0vDkNb07Dm9Pw5jS8OQ1vTsOb0/DmNLw5DW9Ow5vT8OY0vDkNb07Dm9Pw5jS8OQ1vTsOb0/DmNLw5DW9Ow5vT8OY0vDkNb07Dm9Pw5jS8OQ1vTsOb0/DmNLw5DW9Ow5vT8OY0vDkNb07Dm9Pw5jS8OQ1vTsOb0/DmNLw5DW9Ow5vT8OY0vDkNb07Dm9Pw5jS8OQ1vTsOb0/DmNLw5DW9Ow5vT8OY0vDkNb07Dm9Pw5jS8OQ1vTsOb0/DmNLw5DW9Ow5vT8OY0vDkNb07Dm9Pw5jS8OQ1vTsOb0/DmNLw5DW9Ow5vT8OY0vDkNb07Dm9Pw5jS8OQ1vTsP/7ZyG/wA="
        ),
        // raw(b"x" * 3000 + b"xy" * 1000 + b"pqr" * 1000 + b" " * 500): copies that overlap what they write
        ContentCodingVector(
            "rawRuns", contentEncoding: "deflate", plain: PlainTexts.runs,
            base64: "7cJBEQAwCMAwK0gcvJj72WBH0nYDAADjXUmS9Hsny7Zt2/bwg3Ue"),
        // raw(b"")
        ContentCodingVector(
            "rawEmpty", contentEncoding: "deflate", plain: Data(),
            base64: "AwA="),
        // gzip.compress(zlib.compress(hello), mtime=0): deflate applied, then gzip
        ContentCodingVector(
            "zlibThenGzip", contentEncoding: "deflate, gzip", plain: PlainTexts.hello,
            base64: "H4sIAAAAAAACA6u49dnj7MmT1wM1zuuf8gx8wsSg8ollCgAFBB08FgAAAA=="),
    ]

    static func named(_ name: String) -> ContentCodingVector {
        all.first { $0.name == name }!
    }
}

/// The plain texts of the vectors, generated rather than spelled out.
enum PlainTexts {
    static let hello = Data("Hello, world!\n".utf8)

    /// Runs of one, two and three repeated letters and of spaces.
    static let runs = Data(
        (String(repeating: "x", count: 3000) + String(repeating: "xy", count: 1000)
            + String(repeating: "pqr", count: 1000) + String(repeating: " ", count: 500)).utf8)

    /// Every byte value in order, twice.
    static let allBytes = Data((0..<512).map { UInt8(truncatingIfNeeded: $0) })

    /// `line N: the quick brown fox jumps over the lazy dog` for N in 0..<count, each ending in a newline.
    static func lines(_ count: Int) -> Data {
        Data((0..<count).map { "line \($0): the quick brown fox jumps over the lazy dog\n" }.joined().utf8)
    }

    /// `count` letters, `a` or `b` by bit 8 of a xorshift32 sequence: barely compressible, no long repeats.
    static func coinFlips(_ count: Int) -> Data {
        Data(xorshift32(count).map { $0 & 0x100 != 0 ? UInt8(ascii: "a") : UInt8(ascii: "b") })
    }

    /// `count` letters from `a` on, letter k with probability 2^-(k+1) (the trailing zero bits of a xorshift32
    /// sequence), so that an optimal code gives the rare letters long codes.
    static func geometric(_ count: Int) -> Data {
        Data(xorshift32(count).map { UInt8(ascii: "a") + UInt8(min(31, $0.trailingZeroBitCount)) })
    }

    private static func xorshift32(_ count: Int) -> [UInt32] {
        var state: UInt32 = 2_463_534_242
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return state
        }
    }
}
