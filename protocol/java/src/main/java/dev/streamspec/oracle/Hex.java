package dev.streamspec.oracle;

/** Lowercase hex encoding and lenient-case, strict-format decoding. */
final class Hex {
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private Hex() {
    }

    static String encode(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = DIGITS[bytes[i] & 0xf];
        }
        return new String(out);
    }

    static byte[] decode(String hex) {
        if (hex.length() % 2 != 0) {
            throw new IllegalArgumentException("hex string has odd length " + hex.length());
        }
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = digit(hex, 2 * i);
            int lo = digit(hex, 2 * i + 1);
            out[i] = (byte) ((hi << 4) | lo);
        }
        return out;
    }

    private static int digit(String hex, int index) {
        int d = Character.digit(hex.charAt(index), 16);
        if (d < 0) {
            throw new IllegalArgumentException(
                    "not a hex digit at offset " + index + ": '" + hex.charAt(index) + "'");
        }
        return d;
    }
}
