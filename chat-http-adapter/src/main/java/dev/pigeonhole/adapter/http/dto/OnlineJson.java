package dev.pigeonhole.adapter.http.dto;

import dev.pigeonhole.domain.model.UserId;
import java.util.Set;
import java.util.List;

public record OnlineJson(List<String> online) {

    public static OnlineJson from(Set<UserId> users) {
        return new OnlineJson(users.stream().sorted().map(UserId::value).toList());
    }
}
