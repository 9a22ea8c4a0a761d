package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.UserId;
import java.util.Set;
import java.util.List;

public record ApiOnline(List<String> online) {

    public static ApiOnline from(Set<UserId> users) {
        return new ApiOnline(users.stream().sorted().map(UserId::value).toList());
    }
}
