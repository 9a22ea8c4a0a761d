package dev.pigeonhole.archfixture.edge.adapter.http;

import io.opentelemetry.sdk.trace.SdkTracerProvider;

/** Broken on purpose: the HTTP adapter deciding for itself where its spans go. */
public final class SdkBuildingServer {
    public SdkTracerProvider traces() {
        return SdkTracerProvider.builder().build();
    }
}
