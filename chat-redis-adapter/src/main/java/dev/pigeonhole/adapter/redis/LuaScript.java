package dev.pigeonhole.adapter.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A Lua script with its SHA-1 digest, which is how EVALSHA names it. The source is read once from
 * the classpath ({@code lua/<name>.lua} beside this class), with {@code lua/common.lua} and any
 * libraries it names in front, so that what several scripts share is written once.
 */
public record LuaScript(String name, String source, String sha1) {

    public LuaScript {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(sha1, "sha1");
    }

    /**
     * @param libraries what goes in front of the script, after common.lua, in order ({@code "chat"}).
     *                  A script that opens with flags ({@code #!lua flags=…}) keeps that line first,
     *                  where Redis looks for it.
     */
    static LuaScript load(String name, String... libraries) {
        String script = resource(name);
        StringBuilder source = new StringBuilder();
        if (script.startsWith("#!")) {
            int endOfFlags = script.indexOf('\n') + 1;
            source.append(script, 0, endOfFlags);
            script = script.substring(endOfFlags);
        }
        source.append(resource("common")).append('\n');
        for (String library : libraries) {
            source.append(resource(library)).append('\n');
        }
        return of(name, source.append(script).toString());
    }

    /** A script from its source text, digest computed. */
    public static LuaScript of(String name, String source) {
        return new LuaScript(name, source, sha1Of(source));
    }

    private static String resource(String name) {
        String path = "lua/" + name + ".lua";
        try (InputStream in = LuaScript.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script resource " + path, e);
        }
    }

    private static String sha1Of(String source) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-1", e);
        }
    }

    @Override
    public String toString() {
        return "LuaScript[" + name + ", " + sha1 + "]";
    }
}
