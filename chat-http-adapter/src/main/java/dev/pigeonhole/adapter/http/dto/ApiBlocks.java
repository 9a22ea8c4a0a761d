package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.UserId;

import java.util.List;

/** The users the caller blocked; only the caller ever sees this list. */
public record ApiBlocks(List<String> blocked) {

    public static ApiBlocks from(List<UserId> users) {
        return new ApiBlocks(users.stream().map(UserId::value).toList());
    }
}
