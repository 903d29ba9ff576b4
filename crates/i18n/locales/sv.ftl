# Svenska. Kort- och regelord som i Skitgubbe: trumf, sticket, talongen,
# ta upp, bekänna färg.

## Felklasser: meddelandet för ett fel vars skäl saknar egen rad nedan.

error-cancelled = Begäran avbröts.
error-unknown = Något gick fel.
error-invalid-argument = Fältet { $field } är ogiltigt.
error-invalid-request = Begäran är ogiltig.
error-deadline-exceeded = Begäran tog för lång tid.
error-not-found = Hittades inte.
error-already-exists = Det finns redan.
error-permission-denied = Det får du inte göra.
error-resource-exhausted = För många förfrågningar; vänta en stund och försök igen.
error-failed-precondition = Det går inte just nu.
error-aborted = Begäran krockade med en annan; försök igen.
error-out-of-range = Ett värde ligger utanför det tillåtna.
error-unimplemented = Det stöds inte.
error-internal = Internt fel.
error-unavailable = Tjänsten är inte tillgänglig; försök igen om en stund.
error-data-loss = Data har gått förlorad.
error-unauthenticated = Du är inte inloggad, eller så har din session tagit slut.

## Tjänstens fel, efter skäl.

error-stale-version = Spelet har gått vidare (det är vid version { $current_version }, inte { $expected_version }).
error-version-ahead = Spelet är vid version { $current_version }, ännu inte vid { $min_version }.
error-move-id-reused = Drag-id:t har redan använts för ett annat drag.
error-request-id-reused = Begärans id har redan använts för en annan begäran.
error-missing-scope = Det här kräver en behörighet med omfånget "{ $scope }".
error-rate-limited = För många förfrågningar av slaget { $class }; försök igen om { $retry_after_ms } ms.
error-quota-exceeded = Du har nått gränsen { $limit } ({ $quota }).
error-bot-games-exceeded = De här botarna har startat { $limit } spel mot botar det senaste dygnet, så många som tillåts.
error-overloaded = Tjänsten är upptagen; försök igen om { $retry_after_ms } ms.
error-no-such-route = Adressen finns inte.
error-body-too-large = Begäran är för stor.
error-unsupported-media-type = Begäran måste vara JSON.
error-method-not-allowed = Metoden är inte tillåten här.
error-timeout = Begäran tog för lång tid.
error-malformed-json = Begäran är inte giltig JSON.
error-account-disabled = Kontot är avstängt.
error-device-taken = Enheten används redan.
error-name-taken = Namnet är upptaget.
error-no-password = Kontot har inget lösenord.
error-no-world-found = Ingen möjlig giv stämmer med det som har visats.
error-not-a-guest = Bara ett gästkonto kan göra det.
error-not-a-person = Bara en människa kan göra det, inte en bot.
error-operator-only-field = Bara en operatör får ange { $field }.
error-rated-requires-account = Ett rankat parti kräver ett inloggat konto.
error-registration-condition = Du uppfyller inte villkoren för anmälan.
error-seat-requires-consent = Platsen kräver spelarens samtycke.
error-spectator-sees-no-hand = En åskådare ser ingen hand.
error-token-expired = Din session har gått ut; logga in igen.
error-token-revoked = Din session har avslutats; logga in igen.
error-too-many-streams = För många öppna strömmar.
error-wrong-password = Fel namn eller lösenord.
error-no-open-seat = Det finns ingen ledig plats vid bordet.
error-refresh-token-reused = Sessionen användes någon annanstans och har avslutats; logga in igen.
error-seat-forfeited = Din plats har förlorat på tid; klockan spelar den tills partiet är slut.

## Reglernas nej till ett drag.

error-game-over = Spelet är slut.
error-awaiting-shuffle = Korten blandas; vänta.
error-no-shuffle-awaited = Ingen blandning väntas.
error-wrong-shuffle = Blandningen ordnar inte de väntade korten.
error-no-such-seat = Den platsen finns inte vid bordet.
error-not-your-turn = Det är inte din tur.
error-card-not-held = Du har inte det kortet på handen.
error-one-card-only = Med de här reglerna spelas ett kort i taget.
error-not-one-rank = Kort som spelas tillsammans måste ha samma valör.
error-not-a-sequence = Man lägger ett kort eller en svit i en färg.
error-run-must-start-with-two = En svit måste börja med tvåan i sin färg.
error-does-not-beat = Kortet slår inte det översta kortet.
error-chance-needs-two-cards = Att chansa kräver minst två kort i talongen.
error-chance-not-allowed = Man chansar inte med de här reglerna.
error-chance-in-phase-two = Man chansar bara i första fasen.
error-pickup-empty-table = Det finns inget på bordet att ta upp.
error-pickup-in-phase-one = Man får ta upp först i andra fasen.
error-must-pick-up = Du måste ta upp.
error-must-beat = Du kan slå kortet, så du får inte ta upp.
error-empty-hand-must-pick-up = Med tom hand får du bara ta upp.
error-kind-not-in-ruleset = De här reglerna har inget sådant drag.
error-not-now = Det draget går inte just nu.
error-not-sluffable = Det kortet kan inte sakas nu.
error-must-follow = Du har den utspelade färgen och måste bekänna färg.
error-must-tie = Du har ett kort av den högsta valören i sticket och måste lägga lika.

## Hur ett parti slutade.

end-played-out = Spelat till slut
end-action-limit = Oavgjort: draggränsen nåddes
end-resigned = Någon gav upp
end-timeout = Någons tid tog slut
end-void = Partiet ogiltigförklarades
end-forfeit = Någon lämnade walkover

## Terminalklienten (skit).

skit-seated = Parti { $game }, du har plats { $seat }. Skriv numret på ett drag, q för att lämna.
skit-left = Du lämnade bordet.
skit-you = Du: { $move }
skit-table-changed = Bordet ändrades före ditt drag; titta igen.
skit-refused = Nekat: { $why }
skit-game-over-loser = Spelet är slut: { $name } är skitgubbe.
skit-game-over-drawn = Spelet är slut: oavgjort vid draggränsen.
