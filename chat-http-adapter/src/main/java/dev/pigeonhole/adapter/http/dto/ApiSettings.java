package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.consent.AddPolicy;

/** The caller's settings: for now only who may add it to a chat directly, by its wire name. */
public record ApiSettings(String addPolicy) {

    public static ApiSettings from(AddPolicy policy) {
        return new ApiSettings(policy.label());
    }
}
