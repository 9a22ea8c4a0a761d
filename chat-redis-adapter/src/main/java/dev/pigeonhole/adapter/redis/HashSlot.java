package dev.pigeonhole.adapter.redis;

import java.nio.charset.StandardCharsets;

/**
 * The cluster slot of a key, as Redis computes it: CRC16 (XMODEM) of the key, or of its hash tag
 * (the text between the first {@code {} and the next {@code }}, when not empty), modulo 16384.
 * For a driver whose client does not say which slot a key falls in.
 */
public final class HashSlot {

    public static final int SLOTS = 16384;

    private HashSlot() {
    }

    public static int of(String key) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        int start = 0;
        int end = bytes.length;
        int open = indexOf(bytes, (byte) '{', 0);
        if (open >= 0) {
            int close = indexOf(bytes, (byte) '}', open + 1);
            if (close > open + 1) {
                start = open + 1;
                end = close;
            }
        }
        return crc16(bytes, start, end) & (SLOTS - 1);
    }

    private static int indexOf(byte[] bytes, byte wanted, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    private static int crc16(byte[] bytes, int start, int end) {
        int crc = 0;
        for (int i = start; i < end; i++) {
            crc ^= (bytes[i] & 0xff) << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
        }
        return crc & 0xffff;
    }
}
